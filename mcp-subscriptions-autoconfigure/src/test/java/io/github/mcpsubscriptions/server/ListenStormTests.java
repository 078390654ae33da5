package io.github.mcpsubscriptions.server;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import io.github.mcpsubscriptions.autoconfigure.McpProperties;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.MutableClock;
import io.github.mcpsubscriptions.test.SseStream;
import io.github.mcpsubscriptions.test.TestUsers;
import io.micrometer.core.instrument.MeterRegistry;
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
 * Re-listen storms over a real port, on a controllable clock: a client that re-opens
 * listen streams in a loop gets 429 with {@code Retry-After} and a JSON-RPC error,
 * counted in {@code mcp.listen.refused{reason=rate-limit}}; a client that reconnects
 * after network blips, and every other client, is never affected.
 */
class ListenStormTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	private static final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	private static ListenManager.RateLimit rateLimit;

	private ConfigurableApplicationContext context;

	private McpTestClient client;

	@AfterEach
	void close() {
		if (this.context != null && this.context.isActive()) {
			this.context.close();
		}
	}

	private void start(ListenManager.RateLimit limit) {
		rateLimit = limit;
		this.context = new SpringApplication(McpTestApplication.class, ListenTests.Resources.class, Storms.class,
				TestUsers.class)
			.run("--server.port=0");
		this.client = new McpTestClient(((WebServerApplicationContext) this.context).getWebServer().getPort());
	}

	@Test
	void aStormIsRefusedWith429RetryAfterAndAJsonRpcErrorUntilTheClientWaits() throws Exception {
		start(new ListenManager.RateLimit(3, Duration.ofMinutes(1), 100));
		for (int i = 0; i < 3; i++) {
			assertListens(null);
		}
		HttpResponse<String> refused = listen(null);
		assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("20");
		JsonNode body = json(refused.body());
		assertThat(body.get("id").isIntegralNumber()).as("the id is echoed").isTrue();
		JsonNode error = body.get("error");
		assertThat(error.get("code").intValue()).isEqualTo(-32000);
		assertThat(error.get("data").get("limit").stringValue()).isEqualTo("mcp.listen.rate-limit.requests");
		assertThat(error.get("data").get("retryAfterSeconds").intValue()).isEqualTo(20);
		assertThat(refusedForRateLimit()).isEqualTo(1.0);

		clock.advance(Duration.ofSeconds(19));
		assertThat(listen(null).statusCode()).as("still too early").isEqualTo(429);
		clock.advance(Duration.ofSeconds(1));
		assertListens(null);
		assertThat(refusedForRateLimit()).isEqualTo(2.0);
	}

	@Test
	void aWellBehavedClientThatReconnectsAfterBlipsIsNeverAffected() throws Exception {
		// The defaults users get.
		McpProperties.Listen.RateLimit defaults = new McpProperties().getListen().getRateLimit();
		start(new ListenManager.RateLimit(defaults.getRequests(), defaults.getWindow(), defaults.getMaxClients()));
		for (int blip = 0; blip < 80; blip++) {
			// The connection breaks; the client re-listens at once, and once more when
			// that fails too.
			assertListens(null);
			assertListens(null);
			clock.advance(Duration.ofSeconds(10));
		}
		assertThat(refusedForRateLimit()).isZero();
	}

	@Test
	void oneStormingPrincipalDoesNotLimitAnotherOnTheSameAddress() throws Exception {
		start(new ListenManager.RateLimit(2, Duration.ofMinutes(1), 100));
		assertListens("storm");
		assertListens("storm");
		assertThat(listen("storm").statusCode()).isEqualTo(429);
		assertListens("calm");
		assertListens("calm");
		// Anonymous: limited by address, a bucket of its own.
		assertListens(null);
	}

	/** Open a listen stream, read its acknowledgement, close it; the server notices. */
	private void assertListens(String user) throws Exception {
		String[] headers = (user != null) ? new String[] { "X-Test-User", user } : new String[0];
		try (SseStream stream = this.client.listenWithHeaders("{\"resourceSubscriptions\":[\"l://items\"]}", headers)) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			assertThat(stream.nextMessage(WAIT)).isNotNull();
		}
	}

	/** A listen request expected to be refused: its answer is JSON, not a stream. */
	private HttpResponse<String> listen(String user) throws Exception {
		String[] headers = (user != null) ? new String[] { "X-Test-User", user } : new String[0];
		return this.client.send(this.client
			.statelessRequest("subscriptions/listen", "\"notifications\":{\"resourceSubscriptions\":[\"l://items\"]}",
					headers)
			.build());
	}

	private double refusedForRateLimit() {
		return this.context.getBean(MeterRegistry.class)
			.get("mcp.listen.refused")
			.tag("reason", "rate-limit")
			.functionCounter()
			.count();
	}

	@Configuration(proxyBeanMethods = false)
	static class Storms {

		@Bean
		ListenManager mcpListenManager(NotificationEngine notifications, McpRequestDispatcher requests,
				JsonRpcCodec codec) {
			return new ListenManager(notifications, requests, codec, clock, new ListenManager.Settings(true, 1000,
					Duration.ZERO, 100, 10_000, ListenManager.Mode.STREAM, rateLimit));
		}

	}

}
