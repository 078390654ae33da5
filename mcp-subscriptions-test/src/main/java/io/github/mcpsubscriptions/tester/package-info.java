/**
 * Test support for applications that use the starter: {@link McpTester}, a client for
 * tests that speaks both protocol eras over a real port, and
 * {@link AutoConfigureMcpTester}.
 */
@NullMarked
package io.github.mcpsubscriptions.tester;

import org.jspecify.annotations.NullMarked;
