package io.github.mcpsubscriptions.events;

import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.invalidevents.InvalidEvents.Duplicate;
import io.github.mcpsubscriptions.invalidevents.InvalidEvents.NoMode;
import io.github.mcpsubscriptions.invalidevents.InvalidEvents.PollAndPush;
import io.github.mcpsubscriptions.invalidevents.InvalidEvents.Unmatched;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Declaring event types: mistakes fail at start-up with a message naming the class, and
 * each mode is advertised once.
 */
class EventTypeRegistryTests {

	@Test
	void eachModeIsAdvertisedOnce() {
		assertThat(EventTypeRegistry.describe(PollAndPush.class).delivery()).containsExactly("poll", "push");
	}

	@Test
	void aTypeWithNoModeFails() {
		assertThatIllegalStateException().isThrownBy(() -> EventTypeRegistry.describe(NoMode.class))
			.withMessageContaining("test.no-mode")
			.withMessageContaining("no delivery mode that is served");
	}

	@Test
	void argumentsWithoutAMatcherFail() {
		assertThatIllegalStateException().isThrownBy(() -> EventTypeRegistry.describe(Unmatched.class))
			.withMessageContaining("does not implement McpEventMatcher");
	}

	@Test
	void aNameDeclaredTwiceFails() {
		assertThatIllegalStateException()
			.isThrownBy(() -> EventTypeRegistry.of(List.of(PollAndPush.class, Duplicate.class)))
			.withMessageContaining("declared twice");
	}

	@Test
	void subclassesOfADeclaredClassAreOfItsType() {
		EventTypeRegistry registry = EventTypeRegistry.of(List.of(AuditEvent.class));
		assertThat(registry.typeOf(new AuditEvent(this, "x") {
		})).isNotNull();
		assertThat(registry.typeOf("not an event")).isNull();
	}

	@Test
	void typesComeAndGoAtRunTimeAndTheListenersAreToldOfEachChange() {
		EventTypeRegistry registry = EventTypeRegistry.of(List.of());
		List<String> told = new ArrayList<>();
		registry.addListener((type, removed) -> told.add((removed ? "-" : "+") + type.name()));
		AuditEvent event = new AuditEvent(this, "x");
		assertThat(registry.typeOf(event)).isNull();
		registry.register(EventTypeRegistry.describe(AuditEvent.class));
		// The published class's lookup is not stale after a change.
		assertThat(registry.typeOf(event)).isNotNull();
		assertThatIllegalStateException()
			.isThrownBy(() -> registry.register(EventTypeRegistry.describe(AuditEvent.class)))
			.withMessageContaining("declared twice");
		String name = registry.typeOf(event).name();
		assertThat(registry.unregister(name)).isTrue();
		assertThat(registry.unregister(name)).isFalse();
		assertThat(registry.typeOf(event)).isNull();
		assertThat(registry.get(name)).isNull();
		assertThat(told).containsExactly("+" + name, "-" + name);
	}

}
