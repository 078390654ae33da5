package io.github.mcpsubscriptions.metrics;

import java.time.Duration;
import java.util.Collection;

import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.tool.McpTool;
import io.github.mcpsubscriptions.tool.ToolCall;
import io.github.mcpsubscriptions.tool.ToolDefinition;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import io.github.mcpsubscriptions.tool.ToolResult;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.search.Search;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real requests of both eras over a real port, then OpenTelemetry's MCP meter names and
 * attributes. The context is this test's own, so the counts are this test's traffic.
 */
@SpringBootTest(classes = { McpTestApplication.class, McpSemanticConventionMetricsTests.Config.class },
		webEnvironment = WebEnvironment.RANDOM_PORT)
class McpSemanticConventionMetricsTests {

	@LocalServerPort
	private int port;

	@Autowired
	private MeterRegistry meters;

	@Autowired
	private ToolRegistry tools;

	@Test
	void everyAnsweredRequestIsTimedUnderTheConventionsNamesWithBoundedTags() throws Exception {
		this.tools.registerOrReplace(tool("works", ToolResult.text("done")));
		this.tools.registerOrReplace(tool("fails", ToolResult.error("it did not work")));
		McpTestClient client = new McpTestClient(this.port);
		String session = client.initialize("2025-11-25");
		assertThat(json(client.call(session, "resources/read", "{\"uri\":\"otel://items/1\"}").body()).has("result"))
			.isTrue();
		assertThat(json(client.call(session, "resources/read", "{}").body()).at("/error/code").asInt())
			.isEqualTo(-32602);
		assertThat(json(client.call(session, "no/such-method-4711", "{}").body()).at("/error/code").asInt())
			.isEqualTo(-32601);
		assertThat(json(client.call(session, "tools/call", "{\"name\":\"fails\",\"arguments\":{}}").body())
			.at("/result/isError")
			.asBoolean()).isTrue();
		assertThat(json(client.stateless("resources/read", "\"uri\":\"otel://items/2\"").body()).has("result"))
			.isTrue();
		assertThat(
				json(client.stateless("tools/call", "\"name\":\"works\",\"arguments\":{}").body()).at("/result/isError")
					.asBoolean(false))
			.isFalse();
		assertThat(json(client.stateless("no/such-method-4712", "").body()).at("/error/code").asInt())
			.isEqualTo(-32601);

		assertThat(count("mcp.method.name", "initialize", "mcp.protocol.version", "2025-11-25", "error.type", "none"))
			.isOne();
		assertThat(count("mcp.method.name", "resources/read", "mcp.protocol.version", "2025-11-25", "error.type",
				"none", "gen_ai.tool.name", "none"))
			.isOne();
		assertThat(count("mcp.method.name", "resources/read", "mcp.protocol.version", "2025-11-25", "error.type",
				"-32602", "rpc.response.status_code", "-32602"))
			.isOne();
		assertThat(
				count("mcp.method.name", "resources/read", "mcp.protocol.version", "2026-07-28", "error.type", "none"))
			.isOne();
		assertThat(count("mcp.method.name", "tools/call", "mcp.protocol.version", "2025-11-25", "gen_ai.tool.name",
				"fails", "gen_ai.operation.name", "execute_tool", "error.type", "tool_error"))
			.isOne();
		assertThat(count("mcp.method.name", "tools/call", "mcp.protocol.version", "2026-07-28", "gen_ai.tool.name",
				"works", "error.type", "none"))
			.isOne();
		assertThat(count("mcp.method.name", "_OTHER", "error.type", "-32601")).as("unknown methods, both eras")
			.isEqualTo(2);
		Collection<Timer> operations = Search.in(this.meters).name(McpOperationMetrics.OPERATION_DURATION).timers();
		assertThat(operations.stream().mapToLong(Timer::count).sum()).as("every request, once").isEqualTo(8);
		assertThat(operations).allSatisfy((timer) -> assertThat(timer.getId().getTags()).extracting(Tag::getKey)
			.containsExactlyInAnyOrder("mcp.method.name", "mcp.protocol.version", "error.type",
					"rpc.response.status_code", "gen_ai.tool.name", "gen_ai.operation.name", "network.transport",
					"network.protocol.name"));
		assertThat(this.meters.getMeters()).flatExtracting((Meter meter) -> meter.getId().getTags())
			.extracting(Tag::getValue)
			.as("a client's method name never becomes a tag value")
			.noneMatch((value) -> value.contains("such-method"));

		assertThat(client.delete(session).statusCode()).isEqualTo(204);
		await().atMost(Duration.ofSeconds(5))
			.until(() -> Search.in(this.meters).name(McpSessionMetrics.SESSION_DURATION).timers().size() == 1);
		Timer sessions = Search.in(this.meters)
			.name(McpSessionMetrics.SESSION_DURATION)
			.tags("mcp.protocol.version", "2025-11-25", "reason", "deleted", "network.transport", "tcp")
			.timer();
		assertThat(sessions).isNotNull();
		assertThat(sessions.count()).isOne();
	}

	private long count(String... tags) {
		return Search.in(this.meters)
			.name(McpOperationMetrics.OPERATION_DURATION)
			.tags(tags)
			.timers()
			.stream()
			.mapToLong(Timer::count)
			.sum();
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		Items items() {
			return new Items();
		}

	}

	private static McpTool tool(String name, ToolResult result) {
		return new McpTool() {

			@Override
			public ToolDefinition getDefinition() {
				return ToolDefinition.of(name, "a test tool", ToolDefinition.NO_ARGUMENTS);
			}

			@Override
			public ToolResult call(ToolCall call) {
				return result;
			}

		};
	}

	static class Items {

		@McpResource(uri = "otel://items/{id}")
		String item(String id) {
			return "item " + id;
		}

	}

}
