package com.example.weather;

import java.util.Map;

import io.github.mcpsubscriptions.tester.AutoConfigureMcpTester;
import io.github.mcpsubscriptions.tester.McpNotification;
import io.github.mcpsubscriptions.tester.McpSession;
import io.github.mcpsubscriptions.tester.McpSubscription;
import io.github.mcpsubscriptions.tester.McpTester;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring AI server's methods served by mcp-subscriptions: read, called and got as
 * before, and its resources now subscribable, in both eras.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureMcpTester
class WeatherServerTests {

	@Autowired
	private McpTester mcp;

	@Test
	void aSubscriberOfAForecastIsToldWhenTheToolChangesIt() {
		try (McpSession session = this.mcp.session()) {
			McpSubscription paris = session.subscribe("weather://forecasts/paris");

			session.callTool("set_forecast", Map.of("city", "paris", "forecast", "storm"));

			McpNotification notification = paris.awaitNotification();
			assertThat(notification.uri()).isEqualTo("weather://forecasts/paris");
			assertThat(session.read("weather://forecasts/paris").text()).isEqualTo("storm");
		}
	}

	@Test
	void aListenerOfTheTemplateIsToldInThe2026Era() {
		try (McpSubscription forecasts = this.mcp.listen("weather://forecasts/{city}")) {
			this.mcp.callTool("set_forecast", Map.of("city", "lisbon", "forecast", "wind"));

			assertThat(forecasts.awaitNotification().uri()).isEqualTo("weather://forecasts/lisbon");
		}
	}

	@Test
	void resourcesPromptsAndCompletionsAreServedAsBefore() {
		assertThat(this.mcp.read("weather://cities").text()).contains("london");
		try (McpSession session = this.mcp.session()) {
			ObjectNode get = JsonNodeFactory.instance.objectNode().put("name", "packing");
			get.putObject("arguments").put("city", "london");
			JsonNode prompt = session.call("prompts/get", get);
			assertThat(prompt.toString()).contains("The forecast in london is rain");
			ObjectNode complete = JsonNodeFactory.instance.objectNode();
			complete.putObject("ref").put("type", "ref/prompt").put("name", "packing");
			complete.putObject("argument").put("name", "city").put("value", "l");
			assertThat(session.call("completion/complete", complete).toString()).contains("lisbon").contains("london");
		}
	}

}
