package io.github.mcpsubscriptions.server;

import java.net.http.HttpResponse;
import java.security.Principal;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A listen filter of a huge number of URIs costs work in proportion to the limit, not to
 * the square of its length: the server stops examining URIs once the filter exceeds
 * {@code mcp.subscriptions.max-per-session}, and examines a repeated URI once. The work
 * is counted by the access policy, which is asked once per URI examined.
 */
class ListenFilterSizeTests {

	private static final int URIS = 200_000;

	private ConfigurableApplicationContext context;

	@AfterEach
	void close() {
		if (this.context != null && this.context.isActive()) {
			this.context.close();
		}
	}

	private McpTestClient start() {
		// Room for the body of 200,000 URIs.
		this.context = new SpringApplication(McpTestApplication.class, ListenTests.Resources.class, Counting.class)
			.run("--server.port=0", "--mcp.endpoint.max-request-size=8MB");
		return new McpTestClient(((WebServerApplicationContext) this.context).getWebServer().getPort());
	}

	@Test
	void aFilterOfManyDistinctUrisIsRefusedAfterExaminingOneMoreThanTheLimit() throws Exception {
		McpTestClient client = start();
		StringBuilder uris = new StringBuilder();
		for (int i = 0; i < URIS; i++) {
			uris.append((i > 0) ? "," : "").append("\"l://items/").append(i).append('"');
		}
		HttpResponse<String> refused = client.stateless("subscriptions/listen",
				"\"notifications\":{\"resourceSubscriptions\":[" + uris + "]}");
		assertThat(refused.statusCode()).isEqualTo(503);
		JsonNode error = json(refused.body()).get("error");
		assertThat(error.get("code").intValue()).isEqualTo(-32000);
		assertThat(error.get("message").stringValue()).contains("at most 100 subscriptions per listen stream")
			.contains("mcp.subscriptions.max-per-session");
		assertThat(this.context.getBean(CountingPolicy.class).asked).as("URIs examined").hasValue(101);
		assertThat(this.context.getBean(ListenManager.class).getOpenStreamCount()).isZero();
	}

	@Test
	void aRepeatedUriIsExaminedOnceAndHonouredOnce() throws Exception {
		McpTestClient client = start();
		String uris = ",\"l://items/7\"".repeat(URIS).substring(1);
		try (SseStream stream = client.listen("{\"resourceSubscriptions\":[" + uris + ",\"l://items\"]}")) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			JsonNode honoured = json(stream.nextMessage(Duration.ofSeconds(10)).data()).get("params")
				.get("notifications")
				.get("resourceSubscriptions");
			assertThat(honoured).extracting(JsonNode::stringValue).containsExactly("l://items/7", "l://items");
		}
		assertThat(this.context.getBean(CountingPolicy.class).asked).as("URIs examined").hasValue(2);
	}

	@Configuration(proxyBeanMethods = false)
	static class Counting {

		@Bean
		CountingPolicy countingPolicy() {
			return new CountingPolicy();
		}

	}

	/**
	 * Counts what a subscription is judged by: whether the caller may read a resource or
	 * see a template the URI falls under.
	 */
	static class CountingPolicy implements ResourceAccessPolicy {

		final AtomicInteger asked = new AtomicInteger();

		@Override
		public boolean canRead(@Nullable Principal principal, String uri) {
			this.asked.incrementAndGet();
			return true;
		}

		@Override
		public boolean canListTemplate(@Nullable Principal principal, String uriTemplate) {
			this.asked.incrementAndGet();
			return true;
		}

		@Override
		public boolean canReceive(@Nullable Principal principal, String changedUri, String subscribedUri) {
			return true;
		}

	}

}
