/**
 * The sample's security: open by default, an OAuth 2.1 resource server with an embedded
 * authorization server in profile {@code secure}.
 */
@NullMarked
package io.github.mcpsubscriptions.sample.security;

import org.jspecify.annotations.NullMarked;
