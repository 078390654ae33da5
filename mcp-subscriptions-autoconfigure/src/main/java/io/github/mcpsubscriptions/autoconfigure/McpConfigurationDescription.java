package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;
import java.util.Map;

import io.github.mcpsubscriptions.server.McpServerInfo;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.ToStringSerializer;

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

	@SuppressWarnings("unchecked")
	static Map<String, Object> describe(McpProperties properties, McpServerInfo serverInfo) {
		Map<String, Object> description = MAPPER.convertValue(properties, new TypeReference<Map<String, Object>>() {
		});
		Map<String, Object> server = (Map<String, Object>) description.get("server");
		server.put("name", serverInfo.name());
		server.put("version", serverInfo.version());
		return description;
	}

}
