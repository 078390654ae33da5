package io.github.mcpsubscriptions.notification;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A {@link ResourceChangeFeed} for a single node: changes go straight to the consumers.
 *
 * @since 0.1.0
 */
public class InMemoryResourceChangeFeed implements ResourceChangeFeed {

	private final List<Consumer<ResourceChange>> consumers = new CopyOnWriteArrayList<>();

	@Override
	public void publish(ResourceChange change) {
		for (Consumer<ResourceChange> consumer : this.consumers) {
			consumer.accept(change);
		}
	}

	@Override
	public void subscribe(Consumer<ResourceChange> consumer) {
		this.consumers.add(consumer);
	}

}
