package io.github.mcpsubscriptions.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.github.mcpsubscriptions.test.TestRedis;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first "done when" for the Events extension, in the {@code cluster} profile:
 * a client that knows nothing but the draft (raw 2026-07-28 requests) polls
 * {@code catalog.product.changed} with {@code {"minPrice": 50}}, goes away, and comes
 * back with its cursor after the node it polled was restarted: it gets what it missed,
 * only what matches, in order, from the cluster's event log in Redis. A cursor behind
 * what the log retains gets {@code truncated: true} and a fresh position. The run's Redis
 * ({@link TestRedis}), database 11, a key prefix of its own removed after.
 */
class CatalogEventsClusterTests {

	private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"draft-only\",\"version\":\"1\"},"
			+ "\"io.modelcontextprotocol/clientCapabilities\":{}}";

	private static final String PRODUCTS = "\"name\":\"catalog.product.changed\",\"arguments\":{\"minPrice\":50}";

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void aCursorResumesAfterTheNodeRestartedWithOnlyWhatMatchesInOrder() throws Exception {
		String prefix = prefix();
		try {
			String cursor;
			try (ConfigurableApplicationContext node = start(prefix, 10_000)) {
				cursor = call(node, "events/poll", PRODUCTS).get("cursor").stringValue();
				// Away: three writes, two of them at 50 or more.
				assertThat(rest(node, "PUT", "/api/products/2", "{\"name\":\"Notebook\",\"price\":60.00}"))
					.isEqualTo(200);
				assertThat(rest(node, "PUT", "/api/products/3", "{\"name\":\"Fountain pen\",\"price\":12.00}"))
					.isEqualTo(200);
				assertThat(rest(node, "PUT", "/api/products/5", "{\"name\":\"Monitor stand\",\"price\":75.00}"))
					.isEqualTo(200);
			}
			try (ConfigurableApplicationContext restarted = start(prefix, 10_000)) {
				JsonNode result = call(restarted, "events/poll", PRODUCTS + ",\"cursor\":\"" + cursor + "\"");
				assertThat(names(result)).containsExactly("Notebook 60 updated", "Monitor stand 75 updated");
				assertThat(result.get("truncated").booleanValue()).isFalse();
				// The events keep their ids across the restart: a client may dedupe.
				JsonNode again = call(restarted, "events/poll", PRODUCTS + ",\"cursor\":\"" + cursor + "\"");
				assertThat(ids(again)).isEqualTo(ids(result));
				// And it goes on from the cursor it was given, with nothing twice.
				String next = result.get("cursor").stringValue();
				assertThat(rest(restarted, "PUT", "/api/products/1", "{\"name\":\"Desk lamp\",\"price\":90.00}"))
					.isEqualTo(200);
				JsonNode after = call(restarted, "events/poll", PRODUCTS + ",\"cursor\":\"" + next + "\"");
				assertThat(names(after)).containsExactly("Desk lamp 90 updated");
			}
		}
		finally {
			deleteKeys(prefix);
		}
	}

	@Test
	void aCursorBehindWhatTheLogRetainsIsTruncatedWithAFreshPosition() throws Exception {
		String prefix = prefix();
		try (ConfigurableApplicationContext node = start(prefix, 5)) {
			String cursor = call(node, "events/poll", PRODUCTS).get("cursor").stringValue();
			for (int i = 0; i < 12; i++) {
				assertThat(rest(node, "PUT", "/api/products/" + (1 + i % 5),
						"{\"name\":\"Item " + i + "\",\"price\":" + (100 + i) + "}"))
					.isEqualTo(200);
			}
			JsonNode result = call(node, "events/poll", PRODUCTS + ",\"cursor\":\"" + cursor + "\"");
			assertThat(result.get("truncated").booleanValue()).isTrue();
			assertThat(result.get("cursor").stringValue()).isNotEqualTo(cursor);
			// What is still retained comes after the gap, the newest last.
			List<String> names = names(result);
			assertThat(names).hasSizeLessThanOrEqualTo(5).last().isEqualTo("Item 11 111 updated");
			JsonNode next = call(node, "events/poll",
					PRODUCTS + ",\"cursor\":\"" + result.get("cursor").stringValue() + "\"");
			assertThat(next.get("truncated").booleanValue()).isFalse();
			assertThat(next.get("events")).isEmpty();
		}
		finally {
			deleteKeys(prefix);
		}
	}

	private static List<String> names(JsonNode result) {
		List<String> events = new ArrayList<>();
		result.get("events").forEach((event) -> {
			JsonNode data = event.get("data");
			events.add(data.get("name").stringValue() + " "
					+ data.get("price").decimalValue().stripTrailingZeros().toPlainString() + " "
					+ data.get("change").stringValue());
		});
		return events;
	}

	private static List<String> ids(JsonNode result) {
		List<String> ids = new ArrayList<>();
		result.get("events").forEach((event) -> ids.add(event.get("eventId").stringValue()));
		return ids;
	}

	private JsonNode call(ConfigurableApplicationContext node, String method, String params) throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":{" + params + "," + META
				+ "}}";
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(uri(node, "/mcp"))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", method)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode answer = json.readTree(response.body());
		assertThat(answer.has("result")).as(response.body()).isTrue();
		return answer.get("result");
	}

	private int rest(ConfigurableApplicationContext node, String method, String path, String body) throws Exception {
		return this.http
			.send(HttpRequest.newBuilder(uri(node, path))
				.header("Content-Type", "application/json")
				.method(method, HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString())
			.statusCode();
	}

	private static String prefix() {
		return "mcp-sample-events-" + UUID.randomUUID().toString().substring(0, 8) + ":";
	}

	private static ConfigurableApplicationContext start(String prefix, int retentionSize) {
		TestRedis.Address redis = TestRedis.address();
		return new SpringApplicationBuilder(SampleApplication.class).profiles("cluster")
			.run("--server.port=0", "--sample.files.root=target/catalog-events-cluster-" + UUID.randomUUID(),
					"--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
					"--spring.data.redis.database=11", "--mcp.cluster.key-prefix=" + prefix,
					"--mcp.events.retention-size=" + retentionSize);
	}

	/** Once the nodes have stopped, so that nothing they still write stays behind. */
	private static void deleteKeys(String prefix) {
		TestRedis.Address address = TestRedis.address();
		RedisStandaloneConfiguration database = new RedisStandaloneConfiguration(address.host(), address.port());
		database.setDatabase(11);
		LettuceConnectionFactory connections = new LettuceConnectionFactory(database);
		connections.afterPropertiesSet();
		connections.start();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(connections);
			redis.delete(redis.keys(prefix + "*"));
		}
		finally {
			connections.destroy();
		}
	}

	private static URI uri(ConfigurableApplicationContext context, String path) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return URI.create("http://127.0.0.1:" + port + path);
	}

}
