package io.github.mcpsubscriptions.cluster;

import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.mcpsubscriptions.metrics.McpSubscriptionsEndpoint;
import io.github.mcpsubscriptions.metrics.McpSubscriptionsEndpoint.Report;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.cluster.ClusterNodes.publish;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a cluster tells its operators (the backplane's meters, which node holds which
 * stream), and a session taken over by a node that never saw it.
 */
class ClusterObservabilityTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final ClusterNodes nodes = new ClusterNodes(7);

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void theBackplaneIsMeteredAndTheReportNamesTheNodeHoldingEachStream() throws Exception {
		ConfigurableApplicationContext a = this.nodes.start("a");
		ConfigurableApplicationContext b = this.nodes.start("b");
		String session = client(a).initialize();
		assertThat(client(a).call(session, "resources/subscribe", "{\"uri\":\"c://items\"}").statusCode())
			.isEqualTo(200);
		try (SseStream onB = client(b).openStream(session)) {
			assertThat(onB.response().statusCode()).isEqualTo(200);
			publish(a, "c://items/1");
			assertThat(json(onB.nextMessage(WAIT).data()).get("params").get("uri").stringValue())
				.isEqualTo("c://items/1");

			MeterRegistry metersA = a.getBean(MeterRegistry.class);
			MeterRegistry metersB = b.getBean(MeterRegistry.class);
			// Every node reads every change, the publisher too.
			await().atMost(WAIT).untilAsserted(() -> {
				assertThat(metersA.get("mcp.cluster.changes.published").functionCounter().count()).isEqualTo(1.0);
				assertThat(metersA.get("mcp.cluster.changes.received").functionCounter().count()).isEqualTo(1.0);
			});
			assertThat(metersB.get("mcp.cluster.changes.published").functionCounter().count()).isZero();
			assertThat(metersB.get("mcp.cluster.changes.received").functionCounter().count()).isEqualTo(1.0);
			assertThat(metersB.get("mcp.cluster.lag").timeGauge().value()).isNotNegative();
			assertThat(metersB.get("mcp.cluster.lag.total").functionCounter().count()).isNotNegative();
			assertThat(metersB.get("mcp.cluster.connected").gauge().value()).isEqualTo(1.0);
			assertThat(metersB.get("mcp.cluster.redis.errors").functionCounter().count()).isZero();
			assertThat(metersB.get("mcp.cluster.log.gaps").functionCounter().count()).isZero();
			assertThat(metersB.get("mcp.cluster.redis.restarts").functionCounter().count()).isZero();
			assertThat(metersB.get("mcp.cluster.capture.rewinds").functionCounter().count()).isZero();
			assertThat(metersB.get("mcp.cluster.principals.rejected").functionCounter().count()).isZero();

			Report onNodeB = b.getBean(McpSubscriptionsEndpoint.class).report();
			assertThat(onNodeB.totals()).containsEntry("node", "b");
			assertThat(onNodeB.sessions()).singleElement().satisfies((reported) -> {
				assertThat(reported.streamOpen()).isTrue();
				assertThat(reported.subscriptions()).isEqualTo(1);
			});
			Report onNodeA = a.getBean(McpSubscriptionsEndpoint.class).report();
			assertThat(onNodeA.totals()).containsEntry("node", "a");
			assertThat(onNodeA.sessions()).as("a does not hold the session's stream").isEmpty();
		}
	}

	@Test
	void aNodeThatNeverSawASessionKnowsWhoseItIs() throws Exception {
		ConfigurableApplicationContext a = this.nodes.start("a");
		ConfigurableApplicationContext b = this.nodes.start("b");
		McpTestClient onA = client(a);
		HttpResponse<String> initialized = onA.post(onA.initializeBody("2025-11-25"), "X-Test-User", "alice");
		String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
		McpTestClient onB = client(b);
		// Another principal, or none, is told the session does not exist, on a node that
		// never saw it.
		assertThat(onB.post(ping(), "Mcp-Session-Id", session, "X-Test-User", "mallory").statusCode()).isEqualTo(404);
		assertThat(onB.post(ping(), "Mcp-Session-Id", session).statusCode()).isEqualTo(404);
		try (SseStream foreign = onB.openStream(session, "X-Test-User", "mallory")) {
			assertThat(foreign.response().statusCode()).isEqualTo(404);
		}
		assertThat(onB.post(ping(), "Mcp-Session-Id", session, "X-Test-User", "alice").statusCode()).isEqualTo(200);
		assertThat(onB.post(
				"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"c://items\"}}",
				"Mcp-Session-Id", session, "X-Test-User", "alice")
			.statusCode()).isEqualTo(200);
		try (SseStream own = onB.openStream(session, "X-Test-User", "alice")) {
			assertThat(own.response().statusCode()).isEqualTo(200);
			publish(a, "c://items/1");
			SseEvent event = own.nextMessage(WAIT);
			assertThat(json(event.data()).get("params").get("uri").stringValue()).isEqualTo("c://items/1");
		}
	}

	private static String ping() {
		return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
	}

}
