package io.github.mcpsubscriptions.sample;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.sample.catalog.CatalogService;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.DataIntegrityViolationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The catalogue announces committed changes, and only those.
 */
@SpringBootTest
class CatalogNotificationTests {

	@Autowired
	private CatalogService catalog;

	@Autowired
	private RecordingFeed feed;

	@Test
	void committedUpdateIsAnnounced() {
		this.feed.changes.clear();
		this.catalog.update(1, "Brass desk lamp", new BigDecimal("29.90"));
		assertThat(this.feed.changes).extracting(ResourceChange::uri).containsExactly("catalog://products/1");
		assertThat(this.feed.changes.get(0).attributes())
			.isEqualTo(Map.of("change", "updated", "name", "Brass desk lamp"));
	}

	@Test
	void rolledBackChangeIsNeverAnnounced() {
		this.feed.changes.clear();
		// A name over the column's length fails inside the transaction, after the event.
		assertThatExceptionOfType(DataIntegrityViolationException.class)
			.isThrownBy(() -> this.catalog.create("x".repeat(300), BigDecimal.ONE));
		assertThat(this.feed.changes).isEmpty();
	}

	@Test
	void updateOfUnknownProductIsNotAnnounced() {
		this.feed.changes.clear();
		assertThat(this.catalog.update(999, "x", BigDecimal.ONE)).isEmpty();
		assertThat(this.feed.changes).isEmpty();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Feed {

		@Bean
		RecordingFeed recordingFeed() {
			return new RecordingFeed();
		}

	}

	static class RecordingFeed implements ResourceChangeFeed {

		final List<ResourceChange> changes = new CopyOnWriteArrayList<>();

		@Override
		public void publish(ResourceChange change) {
			this.changes.add(change);
		}

		@Override
		public void subscribe(Consumer<ResourceChange> consumer) {
		}

	}

}
