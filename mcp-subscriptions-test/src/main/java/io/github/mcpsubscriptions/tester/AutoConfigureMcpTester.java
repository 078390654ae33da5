package io.github.mcpsubscriptions.tester;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Registers an {@link McpTester} for the application's MCP endpoint (its port and
 * {@code mcp.endpoint.path}) in a {@code @SpringBootTest(webEnvironment = RANDOM_PORT)}
 * test (or {@code DEFINED_PORT}). The tester finds the port when it is first used.
 *
 * @since 0.1.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureMcpTester {

}
