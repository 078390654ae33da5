package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;
import java.util.Map;

import io.github.mcpsubscriptions.events.McpEventsProperties;
import io.github.mcpsubscriptions.server.McpServerInfo;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.ToStringSerializer;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * The {@code mcp.*} settings in effect as plain values, for the Actuator endpoint: sizes
 * and durations as the text a property accepts (a bean serializer would show a
 * {@link DataSize} as {@code {"negative":false}}), and the server's name and version as
 * clients are told them, defaults resolved.
 */
final class McpConfigurationDescription {

	private static final JsonMapper MAPPER = JsonMapper.builder()
		.addModule(new SimpleModule("mcp-configuration").addSerializer(DataSize.class, ToStringSerializer.instance)
			.addSerializer(Duration.class, ToStringSerializer.instance))
		.build();

	private McpConfigurationDescription() {
	}

	/**
	 * The integrations' properties by the key under {@code mcp.} they are bound to. Bound
	 * here rather than taken from the context: an integration that is off has no
	 * properties bean, and its settings are still shown.
	 */
	private static final Map<String, Class<?>> INTEGRATIONS = Map.of("security", McpSecurityProperties.class, "cluster",
			McpClusterProperties.class, "capture", McpCaptureProperties.class, "jpa", McpJpaProperties.class,
			"management", McpManagementProperties.class, "events", McpEventsProperties.class);

	@SuppressWarnings("unchecked")
	static Map<String, Object> describe(McpProperties properties, McpServerInfo serverInfo, Environment environment) {
		Map<String, Object> description = MAPPER.convertValue(properties, new TypeReference<Map<String, Object>>() {
		});
		Binder binder = Binder.get(environment);
		INTEGRATIONS.forEach((key, type) -> description.put(key,
				MAPPER.convertValue(binder.bindOrCreate("mcp." + key, type), new TypeReference<Map<String, Object>>() {
				})));
		Map<String, Object> server = (Map<String, Object>) description.get("server");
		server.put("name", serverInfo.name());
		server.put("version", serverInfo.version());
		return description;
	}

}
