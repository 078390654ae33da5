package io.github.mcpsubscriptions.tester;

import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * How {@link McpTesterAutoConfiguration} finds the endpoint, and that a tester of the
 * application's own wins.
 */
class McpTesterAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpTesterAutoConfiguration.class));

	@Test
	void theEndpointIsTheLocalServerWithItsAddressContextPathAndMcpPath() {
		MockEnvironment environment = new MockEnvironment().withProperty("local.server.port", "8123")
			.withProperty("server.address", "127.0.0.1")
			.withProperty("server.servlet.context-path", "/shop")
			.withProperty("mcp.endpoint.path", "/ai/mcp");
		assertThat(McpTesterAutoConfiguration.localEndpoint(environment))
			.hasToString("http://127.0.0.1:8123/shop/ai/mcp");
	}

	@Test
	void aServerOnEveryInterfaceIsReachedOnLocalhost() {
		MockEnvironment environment = new MockEnvironment().withProperty("local.server.port", "8123")
			.withProperty("server.address", "0.0.0.0");
		assertThat(McpTesterAutoConfiguration.localEndpoint(environment)).hasToString("http://localhost:8123/mcp");
	}

	@Test
	void withoutARunningServerTheTesterSaysWhatIsMissingWhenUsed() {
		this.runner.run((context) -> {
			McpTester tester = context.getBean(McpTester.class);
			assertThatIllegalStateException().isThrownBy(tester::endpoint)
				.withMessageContaining("webEnvironment = WebEnvironment.RANDOM_PORT");
		});
	}

	@Test
	void aTesterOfTheApplicationsOwnWins() {
		McpTester own = McpTester.forUrl("http://localhost:9999/mcp");
		this.runner.withBean(McpTester.class, () -> own)
			.run((context) -> assertThat(context.getBean(McpTester.class)).isSameAs(own));
	}

	@Test
	void theTesterIsClosedWithTheContext() {
		AtomicReference<McpTester> tester = new AtomicReference<>();
		this.runner.run((context) -> {
			tester.set(context.getBean(McpTester.class));
			assertThat(tester.get().isClosed()).isFalse();
		});
		assertThat(tester.get().isClosed()).as("closed when the context closed").isTrue();
	}

}
