package io.github.mcpsubscriptions.events;

import java.security.Principal;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Map;

import io.github.mcpsubscriptions.events.EventsWire.DeliveryStatus;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import org.jspecify.annotations.Nullable;

/** One subscription's delivery, guarded by its monitor. */
final class WebhookLane {

	WebhookSubscription subscription;

	Principal principal;

	@Nullable Object arguments;

	/** Events up to here have been queued or skipped. */
	long position;

	final @Nullable Instant floor;

	final ArrayDeque<Pending> queue = new ArrayDeque<>();

	/** A drain is submitted or waits out a back-off. */
	boolean running;

	boolean closed;

	/** A {@code terminated} envelope is on its way: nothing else is queued. */
	boolean terminating;

	int abandonedInRow;

	@Nullable Instant lastDeliveryAt;

	@Nullable String lastError;

	@Nullable Instant failedSince;

	/**
	 * The watermark last recorded in a shared store, guarded by {@link #persisting}.
	 */
	volatile long persisted = Long.MIN_VALUE;

	final Object persisting = new Object();

	WebhookLane(WebhookSubscription subscription, Principal principal, @Nullable Object arguments, long position,
			@Nullable Instant floor) {
		this.subscription = subscription;
		this.principal = principal;
		this.arguments = arguments;
		this.position = position;
		this.floor = floor;
	}

	DeliveryStatus status() {
		return new DeliveryStatus(this.subscription.active(),
				(this.lastDeliveryAt != null) ? this.lastDeliveryAt.toString() : null, this.lastError,
				(this.failedSince != null) ? this.failedSince.toString() : null);
	}

	/**
	 * Called holding the monitor: the position before its oldest delivery not yet
	 * accepted or abandoned.
	 */
	long watermark() {
		for (Pending pending : this.queue) {
			if (pending.position >= 0) {
				return pending.position - 1;
			}
		}
		return this.position;
	}

	/** A delivery waiting: an event or a control envelope. */
	static final class Pending {

		final String webhookId;

		final byte[] body;

		/** The event's position, {@code -1} for an envelope. */
		final long position;

		final @Nullable Instant eventTime;

		final boolean envelope;

		int attempts;

		@Nullable Instant firstAttempt;

		Pending(String webhookId, byte[] body, long position, @Nullable Instant eventTime) {
			this.webhookId = webhookId;
			this.body = body;
			this.position = position;
			this.eventTime = eventTime;
			this.envelope = position < 0;
		}

		static Pending envelope(String type, Map<String, Object> body, JsonRpcCodec codec) {
			return new Pending(EventsWire.envelopeId(type), codec.write(body), -1, null);
		}

	}

}
