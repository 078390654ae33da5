package io.github.mcpsubscriptions.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's REST API and Actuator get the MCP endpoint's DNS-rebinding protection: a
 * request whose Host (or Origin) belongs to a rebound domain is refused with 403 before
 * anything runs; the same request with a loopback Host goes through.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class DnsRebindingTests {

	private static final String REBOUND = "rebind.attacker.example";

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void actuatorRefusesAReboundHost() throws Exception {
		HttpResponse<String> refused = send(
				get("/actuator/mcpsubscriptions").header("Host", REBOUND + ":" + this.port));
		assertThat(refused.statusCode()).isEqualTo(403);
		assertThat(refused.body()).contains("Host not allowed: " + REBOUND).doesNotContain("maxRequestSize");
		assertThat(send(get("/actuator/mcpsubscriptions")).statusCode()).isEqualTo(200);
	}

	@Test
	void restApiRefusesAReboundHostOrForeignOriginAndChangesNothing() throws Exception {
		String before = send(get("/api/products/1")).body();
		HttpResponse<String> refused = send(put("/api/products/1").header("Host", REBOUND + ":" + this.port));
		assertThat(refused.statusCode()).isEqualTo(403);
		HttpResponse<String> foreignOrigin = send(put("/api/products/1").header("Origin", "https://" + REBOUND));
		assertThat(foreignOrigin.statusCode()).isEqualTo(403);
		assertThat(foreignOrigin.body()).contains("Origin not allowed");
		assertThat(send(get("/api/products/1")).body()).isEqualTo(before);
	}

	@Test
	void mcpEndpointStillRefusesAReboundHost() throws Exception {
		HttpResponse<String> refused = send(HttpRequest.newBuilder(uri("/mcp"))
			.header("Host", REBOUND + ":" + this.port)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")));
		assertThat(refused.statusCode()).isEqualTo(403);
	}

	private HttpRequest.Builder get(String path) {
		return HttpRequest.newBuilder(uri(path)).GET();
	}

	private HttpRequest.Builder put(String path) {
		return HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"Rebound\",\"price\":1.00}"));
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
