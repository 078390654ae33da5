package io.github.mcpsubscriptions.resource;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ResourceRegistryTests {

	private final ResourceRegistry registry = new ResourceRegistry();

	@Test
	void staticResourceWinsOverTemplate() {
		this.registry.register(ResourceDefinition.builder("a://items/{id}", (r) -> "template").build());
		this.registry.register(ResourceDefinition.builder("a://items/special", (r) -> "static").build());
		assertThat(this.registry.resolve("a://items/special").definition().getUri()).isEqualTo("a://items/special");
		assertThat(this.registry.resolve("a://items/7").variables()).isEqualTo(Map.of("id", "7"));
	}

	@Test
	void mostSpecificTemplateWins() {
		this.registry.register(ResourceDefinition.builder("file:///{+path}", (r) -> "any").build());
		this.registry.register(ResourceDefinition.builder("file:///docs/{name}", (r) -> "doc").build());
		assertThat(this.registry.resolve("file:///docs/readme.md").definition().getUri())
			.isEqualTo("file:///docs/{name}");
		assertThat(this.registry.resolve("file:///src/Main.java").definition().getUri()).isEqualTo("file:///{+path}");
	}

	@Test
	void anInstanceIsListedWhenTheTemplateThatServesItListsItsInstances() {
		this.registry
			.register(ResourceDefinition.builder("a://items/{id}", (r) -> "item").instanceLister(List::of).build());
		this.registry.register(ResourceDefinition.builder("a://items/special", (r) -> "static").build());
		this.registry.register(ResourceDefinition.builder("file:///{+path}", (r) -> "any").build());
		assertThat(this.registry.isListedInstance("a://items/7")).isTrue();
		assertThat(this.registry.isListedInstance("a://items/special")).as("a resource of its own").isFalse();
		assertThat(this.registry.isListedInstance("file:///notes.txt")).as("a template that lists nothing").isFalse();
		assertThat(this.registry.isListedInstance("b://unknown")).isFalse();
	}

	@Test
	void unknownUriResolvesToNothing() {
		this.registry.register(ResourceDefinition.builder("a://x", (r) -> "x").build());
		assertThat(this.registry.resolve("a://y")).isNull();
	}

	@Test
	void duplicateIsRefused() {
		this.registry.register(ResourceDefinition.builder("a://x", (r) -> "x").build());
		assertThatIllegalStateException()
			.isThrownBy(() -> this.registry.register(ResourceDefinition.builder("a://x", (r) -> "y").build()))
			.withMessageContaining("a://x");
	}

	@Test
	void changesTellListeners() {
		AtomicInteger changes = new AtomicInteger();
		this.registry.addListener(changes::incrementAndGet);
		this.registry.register(ResourceDefinition.builder("a://x", (r) -> "x").build());
		this.registry.registerOrReplace(ResourceDefinition.builder("a://x", (r) -> "y").build());
		assertThat(this.registry.unregister("a://x")).isTrue();
		assertThat(this.registry.unregister("a://x")).isFalse();
		assertThat(changes).hasValue(3);
	}

	@Test
	void onlyTemplatesListInstances() {
		Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> ResourceDefinition.builder("a://x", (r) -> "x").instanceLister(List::of).build());
	}

}
