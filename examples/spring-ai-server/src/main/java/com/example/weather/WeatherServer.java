package com.example.weather;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;

import org.springframework.ai.mcp.annotation.McpArg;
import org.springframework.ai.mcp.annotation.McpComplete;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.ai.mcp.annotation.McpResource;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * A Spring AI MCP server's tools, resources and prompts, as Spring AI's documentation
 * writes them. The one line added for mcp-subscriptions: the tool publishes a
 * {@link ResourceChangedEvent}, so subscribers of a city's forecast hear of its change.
 */
@Component
public class WeatherServer {

	private final Map<String, String> forecasts = new ConcurrentHashMap<>(
			Map.of("paris", "sunny", "london", "rain", "lisbon", "sunny"));

	private final ApplicationEventPublisher events;

	public WeatherServer(ApplicationEventPublisher events) {
		this.events = events;
	}

	@McpTool(name = "set_forecast", description = "Set the forecast of a city")
	public String setForecast(@McpToolParam(description = "The city", required = true) String city,
			@McpToolParam(description = "The forecast", required = true) String forecast) {
		this.forecasts.put(city, forecast);
		this.events.publishEvent(new ResourceChangedEvent("weather://forecasts/" + city));
		return city + ": " + forecast;
	}

	@McpResource(uri = "weather://cities", name = "cities", description = "The cities with a forecast",
			mimeType = "text/plain")
	public String cities() {
		return String.join("\n", this.forecasts.keySet().stream().sorted().toList());
	}

	@McpResource(uri = "weather://forecasts/{city}", name = "forecast", description = "A city's forecast",
			mimeType = "text/plain")
	public ReadResourceResult forecast(String city) {
		return new ReadResourceResult(List.of(new TextResourceContents("weather://forecasts/" + city, "text/plain",
				this.forecasts.getOrDefault(city, "unknown"))));
	}

	@McpPrompt(name = "packing", description = "What to pack for a city")
	public GetPromptResult packing(@McpArg(name = "city", description = "The city", required = true) String city) {
		String forecast = this.forecasts.getOrDefault(city, "unknown");
		return new GetPromptResult("Packing for " + city, List.of(new PromptMessage(Role.USER,
				new TextContent("The forecast in " + city + " is " + forecast + ". What should I pack?"))));
	}

	@McpComplete(prompt = "packing")
	public List<String> completeCity(String prefix) {
		return this.forecasts.keySet().stream().filter((city) -> city.startsWith(prefix)).sorted().toList();
	}

}
