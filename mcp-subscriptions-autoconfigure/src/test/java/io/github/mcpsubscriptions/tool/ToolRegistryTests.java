package io.github.mcpsubscriptions.tool;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The tool registry: listing by name, duplicates refused, schemas checked at
 * registration, listeners told of every change.
 */
class ToolRegistryTests {

	private final ToolRegistry registry = new ToolRegistry();

	@Test
	void listsByNameAndTellsListenersOfEveryChange() {
		AtomicInteger changes = new AtomicInteger();
		this.registry.addListener(changes::incrementAndGet);
		this.registry.register(tool("b", ToolDefinition.NO_ARGUMENTS));
		this.registry.register(tool("a", ToolDefinition.NO_ARGUMENTS));
		assertThat(this.registry.getTools()).extracting(RegisteredTool::name).containsExactly("a", "b");
		this.registry.registerOrReplace(tool("a", "{\"type\":\"object\",\"required\":[\"x\"]}"));
		assertThat(this.registry.get("a").inputSchema().get("required").get(0).stringValue()).isEqualTo("x");
		assertThat(this.registry.unregister("a")).isTrue();
		assertThat(this.registry.unregister("a")).isFalse();
		assertThat(changes).hasValue(4);
		assertThat(this.registry.isEmpty()).isFalse();
	}

	@Test
	void refusesDuplicatesAndBadSchemas() {
		this.registry.register(tool("a", ToolDefinition.NO_ARGUMENTS));
		assertThatIllegalStateException()
			.isThrownBy(() -> this.registry.register(tool("a", ToolDefinition.NO_ARGUMENTS)))
			.withMessageContaining("Duplicate MCP tool 'a'");
		assertThatIllegalArgumentException().isThrownBy(() -> this.registry.register(tool("b", "not json")))
			.withMessageContaining("is not JSON");
		assertThatIllegalArgumentException().isThrownBy(() -> this.registry.register(tool("c", "[1]")))
			.withMessageContaining("must be a JSON object");
		assertThatIllegalArgumentException().isThrownBy(() -> tool("", ToolDefinition.NO_ARGUMENTS).getDefinition());
		assertThat(this.registry.getTools()).hasSize(1);
	}

	private static McpTool tool(String name, String schema) {
		return new McpTool() {

			@Override
			public ToolDefinition getDefinition() {
				return ToolDefinition.of(name, null, schema);
			}

			@Override
			public ToolResult call(ToolCall call) {
				return ToolResult.text(name);
			}

		};
	}

}
