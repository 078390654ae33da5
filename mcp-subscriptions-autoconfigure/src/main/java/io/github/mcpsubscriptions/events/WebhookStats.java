package io.github.mcpsubscriptions.events;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * Counts of webhook delivery, for the meters: never tagged by subscription, principal or
 * URL.
 */
final class WebhookStats {

	/** The failure categories, as the draft names them. */
	static final String[] CATEGORIES = { "connection_refused", "timeout", "tls_error", "http_4xx", "http_5xx" };

	private final LongAdder attempts = new LongAdder();

	private final LongAdder delivered = new LongAdder();

	private final LongAdder retries = new LongAdder();

	private final LongAdder abandoned = new LongAdder();

	private final LongAdder verificationFailures = new LongAdder();

	private final LongAdder suspensions = new LongAdder();

	private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();

	private volatile @Nullable Consumer<Duration> lagObserver;

	void attempted() {
		this.attempts.increment();
	}

	void delivered(Duration lag) {
		this.delivered.increment();
		Consumer<Duration> observer = this.lagObserver;
		if (observer != null) {
			observer.accept(lag);
		}
	}

	void failed(String category) {
		this.failures.computeIfAbsent(category, (key) -> new LongAdder()).increment();
	}

	void retried() {
		this.retries.increment();
	}

	void abandoned() {
		this.abandoned.increment();
	}

	void verificationFailed() {
		this.verificationFailures.increment();
	}

	void suspended() {
		this.suspensions.increment();
	}

	void observeLag(Consumer<Duration> observer) {
		this.lagObserver = observer;
	}

	long getAttempts() {
		return this.attempts.sum();
	}

	long getDelivered() {
		return this.delivered.sum();
	}

	long getRetries() {
		return this.retries.sum();
	}

	long getAbandoned() {
		return this.abandoned.sum();
	}

	long getVerificationFailures() {
		return this.verificationFailures.sum();
	}

	long getSuspensions() {
		return this.suspensions.sum();
	}

	long getFailures(String category) {
		LongAdder count = this.failures.get(category);
		return (count != null) ? count.sum() : 0;
	}

}
