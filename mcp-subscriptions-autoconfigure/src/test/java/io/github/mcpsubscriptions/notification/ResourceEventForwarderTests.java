package io.github.mcpsubscriptions.notification;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.github.mcpsubscriptions.autoconfigure.McpEndpointAutoConfiguration;
import io.github.mcpsubscriptions.autoconfigure.McpServerAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Changes published in a transaction reach the feed after commit, and never on rollback.
 */
class ResourceEventForwarderTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class, McpEndpointAutoConfiguration.class))
		.withUserConfiguration(Transactions.class);

	@Test
	void publishedOutsideTransactionIsForwardedAtOnce() {
		this.runner.run((context) -> {
			context.publishEvent(new ResourceChangedEvent("a://x"));
			assertThat(context.getBean(RecordingFeed.class).uris()).containsExactly("a://x");
		});
	}

	@Test
	void publishedInTransactionIsForwardedAfterCommit() {
		this.runner.run((context) -> {
			RecordingFeed feed = context.getBean(RecordingFeed.class);
			new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
				.executeWithoutResult((status) -> {
					context.publishEvent(new ResourceChangedEvent("a://x", Map.of("version", 2)));
					assertThat(feed.uris()).as("nothing before commit").isEmpty();
				});
			assertThat(feed.uris()).containsExactly("a://x");
			assertThat(feed.changes.get(0).attributes()).containsEntry("version", 2);
		});
	}

	@Test
	void rolledBackChangeIsNeverForwarded() {
		this.runner.run((context) -> {
			RecordingFeed feed = context.getBean(RecordingFeed.class);
			new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
				.executeWithoutResult((status) -> {
					context.publishEvent(new ResourceChangedEvent("a://x"));
					status.setRollbackOnly();
				});
			assertThat(feed.uris()).isEmpty();
		});
	}

	@Test
	void anEventBecomesTheSameChangeWithAndWithoutTransactions() {
		ResourceChangedEvent event = new ResourceChangedEvent("a://x", Map.of("version", 2));
		ResourceChange expected = ResourceChange.of(event);
		assertThat(expected.uri()).isEqualTo("a://x");
		assertThat(expected.attributes()).containsExactly(Map.entry("version", 2));
		assertThat(expected.publishedAt().toEpochMilli()).isEqualTo(event.getTimestamp());
		assertThat(expected.position()).isNull();
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(ResourceEventForwarder.class);
			context.publishEvent(event);
			assertThat(context.getBean(RecordingFeed.class).changes).containsExactly(expected);
		});
		// Without Spring's transactions, the plain listener forwards the event.
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(McpServerAutoConfiguration.class, McpEndpointAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader(TransactionalEventListener.class))
			.withBean(RecordingFeed.class, RecordingFeed::new)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ResourceEventForwarder.class)
					.hasBean("mcpResourceChangedEventListener");
				context.publishEvent(event);
				assertThat(context.getBean(RecordingFeed.class).changes).containsExactly(expected);
			});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class Transactions {

		@Bean
		PlatformTransactionManager transactionManager() {
			return new NoResourceTransactionManager();
		}

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

		List<String> uris() {
			return this.changes.stream().map(ResourceChange::uri).toList();
		}

	}

	/**
	 * Real transaction synchronization, no resource behind it.
	 */
	static class NoResourceTransactionManager extends AbstractPlatformTransactionManager {

		@Override
		protected Object doGetTransaction() {
			return new Object();
		}

		@Override
		protected void doBegin(Object transaction, TransactionDefinition definition) {
		}

		@Override
		protected void doCommit(DefaultTransactionStatus status) {
		}

		@Override
		protected void doRollback(DefaultTransactionStatus status) {
		}

	}

}
