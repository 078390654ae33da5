package io.github.mcpsubscriptions.events;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Tells the readers of an event log that it grew on this node, so that push streams and
 * webhook delivery read on at once instead of at their next scan (which stays, for what
 * other nodes append to a shared log). A listener runs on the appending thread, after the
 * append: it must only hand work over, never read the log itself.
 */
final class AppendSignal {

	private static final Log logger = LogFactory.getLog(AppendSignal.class);

	private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

	void add(Runnable listener) {
		this.listeners.add(listener);
	}

	void appended() {
		for (Runnable listener : this.listeners) {
			try {
				listener.run();
			}
			catch (RuntimeException ex) {
				// The event is logged: a reader that was not told reads it at its next
				// scan.
				logger.warn("A reader of the event log could not be told of an append", ex);
			}
		}
	}

}
