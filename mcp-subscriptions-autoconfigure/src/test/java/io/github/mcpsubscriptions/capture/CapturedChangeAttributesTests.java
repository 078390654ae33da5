package io.github.mcpsubscriptions.capture;

import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.capture.CaptureNodes.recorded;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A captured table's changes carry what a {@link CapturedChangeAttributes} bean gives
 * them, beside the capture's own {@code change}: the way to keep the attributes an
 * application's own event for such a row would have carried (that event is dropped).
 */
class CapturedChangeAttributesTests {

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void aCapturedChangeCarriesTheAttributesTheBeanGivesAndKeepsItsOwnChange() {
		ConfigurableApplicationContext node = this.nodes.start(new Class<?>[] { Attributes.class });
		// The application's own event for the row is dropped, its attributes with it...
		node.publishEvent(new ResourceChangedEvent("catalog://products/1", Map.of("status", "from the event")));
		this.nodes.sql("insert into product values (1, 'tea', 3.50)");
		this.nodes.awaitRecorded(node, 1);
		List<ResourceChange> changes = recorded(node);
		// ...and the bean gives them back on the capture's change.
		assertThat(changes).singleElement().satisfies((change) -> {
			assertThat(change.uri()).isEqualTo("catalog://products/1");
			assertThat(change.attributes())
				.isEqualTo(Map.of("table", "product", "status", "shipped", "change", "created"));
		});
	}

	@Test
	void aBeanThatFailsLeavesTheChangeWithItsChangeAlone() {
		ConfigurableApplicationContext node = this.nodes.start(new Class<?>[] { FailingAttributes.class });
		this.nodes.sql("insert into product values (1, 'tea', 3.50)");
		this.nodes.awaitRecorded(node, 1);
		assertThat(recorded(node)).singleElement()
			.satisfies((change) -> assertThat(change.attributes()).isEqualTo(Map.of("change", "created")));
	}

	@Configuration(proxyBeanMethods = false)
	static class Attributes {

		@Bean
		CapturedChangeAttributes attributes() {
			return (table, uri, change) -> Map.of("table", table, "status", "shipped", "change", "overridden");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingAttributes {

		@Bean
		CapturedChangeAttributes attributes() {
			return (table, uri, change) -> {
				throw new IllegalStateException("no attributes here");
			};
		}

	}

}
