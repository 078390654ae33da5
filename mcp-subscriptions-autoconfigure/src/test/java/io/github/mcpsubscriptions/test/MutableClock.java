package io.github.mcpsubscriptions.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A clock that tests move by hand, and that counts how often it is read.
 */
public final class MutableClock extends Clock {

	private final AtomicInteger reads = new AtomicInteger();

	private volatile Instant now;

	public MutableClock(Instant now) {
		this.now = now;
	}

	public void advance(Duration duration) {
		this.now = this.now.plus(duration);
	}

	/**
	 * How often {@link #instant()} was called.
	 * @return the count
	 */
	public int reads() {
		return this.reads.get();
	}

	@Override
	public Instant instant() {
		this.reads.incrementAndGet();
		return this.now;
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException();
	}

}
