package io.github.mcpsubscriptions.tester;

import java.net.URI;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The {@link McpTester} of {@link AutoConfigureMcpTester}: it talks to the application's
 * own server on {@code local.server.port}, and is closed with the application context
 * (its threads stop, and what a test left open is ended).
 *
 * @since 0.1.0
 */
@AutoConfiguration
public final class McpTesterAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpTester mcpTester(Environment environment) {
		return McpTester.forEndpoint(() -> localEndpoint(environment));
	}

	static URI localEndpoint(Environment environment) {
		String port = environment.getProperty("local.server.port");
		if (port == null) {
			throw new IllegalStateException("McpTester needs a running server: annotate the test with "
					+ "@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)");
		}
		String address = environment.getProperty("server.address", "");
		// A server bound to every interface is reached through the loopback interface.
		String host = (address.isEmpty() || address.equals("0.0.0.0") || address.equals("::")) ? "localhost"
				: (address.contains(":") ? "[" + address + "]" : address);
		String contextPath = environment.getProperty("server.servlet.context-path", "");
		String path = environment.getProperty("mcp.endpoint.path", "/mcp");
		return URI.create("http://" + host + ":" + port + contextPath + path);
	}

}
