package io.github.mcpsubscriptions.transport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;

/**
 * Logs the requests refused while a backing service is down: the first at WARN, then at
 * most one WARN per interval that counts the others, which go to DEBUG. An outage meets
 * every request, and one WARN per request would bury the log that tells of it.
 */
final class OutageWarnings {

	private static final long NEVER = Long.MIN_VALUE;

	private final Log logger;

	private final long intervalNanos;

	private final LongSupplier nanoTime;

	private final AtomicLong lastWarning = new AtomicLong(NEVER);

	private final AtomicLong quiet = new AtomicLong();

	OutageWarnings(Log logger, long interval, TimeUnit unit, LongSupplier nanoTime) {
		this.logger = logger;
		this.intervalNanos = unit.toNanos(interval);
		this.nanoTime = nanoTime;
	}

	void refused(String message) {
		long now = this.nanoTime.getAsLong();
		long last = this.lastWarning.get();
		if ((last == NEVER || now - last >= this.intervalNanos) && this.lastWarning.compareAndSet(last, now)) {
			long others = this.quiet.getAndSet(0);
			this.logger.warn((others > 0) ? message + " (" + others + " more refused since the last warning)"
					: message + " (further refusals are logged at DEBUG for "
							+ TimeUnit.NANOSECONDS.toSeconds(this.intervalNanos) + " s)");
			return;
		}
		this.quiet.incrementAndGet();
		if (this.logger.isDebugEnabled()) {
			this.logger.debug(message);
		}
	}

}
