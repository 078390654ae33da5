package io.github.mcpsubscriptions.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live page at {@code /} over a real port: the page, every ES module it imports (a
 * browser refuses a module served with another content type) and its style sheet; the
 * meters its counter panel reads exist; and its same-origin requests pass the
 * DNS-rebinding protection of {@code /mcp}, {@code /api/*} and {@code /actuator/*}. The
 * page's behaviour in a real browser is {@code .ci/browser.sh}'s job.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class PageTests {

	/** {@code import … from './x.js'} and {@code import './x.js'}. */
	private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:[^'\"]*\\sfrom\\s+)?['\"](\\./[^'\"]+)['\"]",
			Pattern.MULTILINE);

	private static final Pattern METER = Pattern.compile("\\{\\s*meter:\\s*'([^']+)'(?:,\\s*tag:\\s*'([^']+)')?");

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void rootServesThePageWhichLoadsItsModuleAndStyleSheet() throws Exception {
		HttpResponse<String> page = get("/");
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
		assertThat(page.body()).contains("<script type=\"module\" src=\"live/app.js\"></script>")
			.contains("<link rel=\"stylesheet\" href=\"live/page.css\">")
			// Nothing from elsewhere: no CDN, no fonts, no favicon request.
			.doesNotContainPattern("(src|href)=\"(https?:)?//");
		HttpResponse<String> css = get("/live/page.css");
		assertThat(css.statusCode()).isEqualTo(200);
		assertThat(css.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/css"));
	}

	@Test
	void everyModuleThePageImportsIsServedAsJavaScript() throws Exception {
		Set<String> seen = new LinkedHashSet<>();
		Deque<String> pending = new ArrayDeque<>();
		pending.add("/live/app.js");
		while (!pending.isEmpty()) {
			String path = pending.removeFirst();
			if (!seen.add(path)) {
				continue;
			}
			HttpResponse<String> module = get(path);
			assertThat(module.statusCode()).as(path).isEqualTo(200);
			assertThat(module.headers().firstValue("Content-Type")).as(path)
				.hasValueSatisfying((type) -> assertThat(type).matches("(text|application)/javascript.*"));
			Matcher imports = IMPORT.matcher(module.body());
			while (imports.find()) {
				pending.add(URI.create(path).resolve(imports.group(1)).getPath());
			}
			assertThat(module.body()).as(path + " loads nothing from elsewhere")
				.doesNotContain("import('http", "from 'http");
		}
		assertThat(seen).containsExactlyInAnyOrder("/live/app.js", "/live/mcp.js", "/live/sse.js", "/live/meters.js",
				"/live/events.js");
	}

	@Test
	void everyMeterTheCounterPanelReadsExists() throws Exception {
		Matcher meters = METER.matcher(get("/live/meters.js").body());
		int found = 0;
		while (meters.find()) {
			found++;
			String path = "/actuator/metrics/" + meters.group(1)
					+ ((meters.group(2) != null) ? "?tag=" + meters.group(2) : "");
			HttpResponse<String> meter = get(path);
			assertThat(meter.statusCode()).as(path).isEqualTo(200);
			JsonNode measurements = json.readTree(meter.body()).get("measurements");
			assertThat(measurements.valueStream().map((m) -> m.get("statistic").stringValue())).as(path)
				.containsAnyOf("VALUE", "COUNT");
		}
		assertThat(found).as("meters named in meters.js").isGreaterThanOrEqualTo(4);
	}

	@Test
	void thePagesSameOriginRequestsPassTheDnsRebindingProtection() throws Exception {
		String origin = "http://127.0.0.1:" + this.port;
		HttpResponse<String> put = send(HttpRequest.newBuilder(uri("/api/products/1"))
			.header("Origin", origin)
			.header("Content-Type", "application/json")
			.PUT(HttpRequest.BodyPublishers.ofString(get("/api/products/1").body())));
		assertThat(put.statusCode()).isEqualTo(200);
		assertThat(
				send(HttpRequest.newBuilder(uri("/actuator/metrics/mcp.subscriptions.active")).header("Origin", origin))
					.statusCode())
			.isEqualTo(200);
		HttpResponse<String> discover = send(HttpRequest.newBuilder(uri("/mcp"))
			.header("Origin", origin)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", "server/discover")
			.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\","
					+ "\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
					+ "\"io.modelcontextprotocol/clientCapabilities\":{}}}}")));
		assertThat(discover.statusCode()).isEqualTo(200);
		assertThat(json.readTree(discover.body()).get("result")).isNotNull();
		// The same page served from elsewhere (a rebound name) is refused its data.
		assertThat(send(HttpRequest.newBuilder(uri("/api/products")).header("Origin", "http://rebind.attacker.example"))
			.statusCode()).isEqualTo(403);
	}

	private HttpResponse<String> get(String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(path)));
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
