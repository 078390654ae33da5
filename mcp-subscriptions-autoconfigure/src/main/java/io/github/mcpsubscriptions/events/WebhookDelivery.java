package io.github.mcpsubscriptions.events;

import java.net.URI;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.events.EventLog.LoggedEvent;
import io.github.mcpsubscriptions.events.EventLog.Slice;
import io.github.mcpsubscriptions.events.EventsWire.Cursor;
import io.github.mcpsubscriptions.events.EventsWire.DeliveryStatus;
import io.github.mcpsubscriptions.events.EventsWire.WebhookOccurrence;
import io.github.mcpsubscriptions.events.WebhookHttp.Answer;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Delivers events to webhook subscriptions: reads the event log every scan interval,
 * queues what each subscription receives (matched with its arguments, allowed for its
 * principal), and posts it, one POST in flight per subscription, so that a subscription's
 * events arrive in order. At least once: a failed POST is retried, with the same
 * {@code webhook-id} and a new timestamp and signature, after an exponential back-off
 * bounded by attempts and by time; a delivery that keeps failing is abandoned (a
 * {@code 410} or {@code 413} at once), and a subscription whose deliveries keep being
 * abandoned is suspended until its client refreshes it.
 * <p>
 * Each subscription's cursor is a watermark: the position before its oldest delivery not
 * yet accepted or abandoned. A subscription found behind what the log retains gets a
 * {@code gap} envelope; one its principal may no longer subscribe to gets a
 * {@code terminated} envelope ({@code Forbidden}) and ends.
 */
final class WebhookDelivery implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(WebhookDelivery.class);

	private final EventTypeRegistry types;

	private final EventLog log;

	private final McpEventAccessPolicy policy;

	private final JsonRpcCodec codec;

	private final WebhookSubscriptionStore store;

	private final WebhookHttp http;

	private final WebhookStats stats;

	private final Retries retries;

	private final Clock wallClock;

	private final ScheduledExecutorService executor;

	private final Map<String, Lane> lanes = new ConcurrentHashMap<>();

	private volatile boolean closed;

	WebhookDelivery(EventTypeRegistry types, EventLog log, McpEventAccessPolicy policy, JsonRpcCodec codec,
			WebhookSubscriptionStore store, WebhookHttp http, WebhookStats stats, Retries retries, Clock wallClock,
			ScheduledExecutorService executor) {
		this.types = types;
		this.log = log;
		this.policy = policy;
		this.codec = codec;
		this.store = store;
		this.http = http;
		this.stats = stats;
		this.retries = retries;
		this.wallClock = wallClock;
		this.executor = executor;
	}

	/**
	 * Start reading the log.
	 * @param interval how often
	 */
	void start(Duration interval) {
		this.executor.scheduleWithFixedDelay(this::scanSafely, interval.toMillis(), interval.toMillis(),
				TimeUnit.MILLISECONDS);
	}

	/**
	 * Start or refresh delivery to a subscription (after its endpoint was verified).
	 * @param subscription the subscription, as stored
	 * @param principal its principal
	 * @param arguments its bound arguments, or {@code null}
	 * @param cursor the client's cursor, or {@code null} for now
	 * @param maxAgeMs the replay floor, or {@code null}
	 * @return where delivery stands
	 */
	Activation activate(WebhookSubscription subscription, Principal principal, @Nullable Object arguments,
			@Nullable Cursor cursor, @Nullable Long maxAgeMs) {
		Lane existing = this.lanes.get(subscription.id());
		if (existing != null) {
			// A refresh of a live subscription: the cursor is a no-op, delivery goes on
			// where it is; a suspended one resumes.
			DeliveryStatus status;
			synchronized (existing) {
				status = existing.status();
				existing.subscription = subscription;
				existing.principal = principal;
				existing.arguments = arguments;
				existing.lastError = null;
				existing.failedSince = null;
				existing.abandonedInRow = 0;
			}
			return new Activation(watermark(existing), false, status);
		}
		Slice slice = this.log.after(Long.MAX_VALUE);
		long start = slice.head();
		boolean truncated = false;
		Instant floor = null;
		if (cursor != null) {
			boolean sameEpoch = cursor.epoch().equals(this.log.epoch());
			if (!sameEpoch || cursor.position() > slice.head() || cursor.position() < slice.oldest() - 1) {
				// Behind what is retained: from the oldest retained, said to be
				// truncated.
				truncated = true;
				start = slice.oldest() - 1;
			}
			else {
				start = cursor.position();
			}
			if (maxAgeMs != null) {
				floor = this.log.now().minusMillis(maxAgeMs);
				for (LoggedEvent event : this.log.after(start).events()) {
					if (event.type().equals(subscription.name()) && event.timestamp().isBefore(floor)) {
						truncated = true;
						break;
					}
				}
			}
		}
		Lane lane = new Lane(subscription, principal, arguments, start, floor);
		Lane raced = this.lanes.putIfAbsent(subscription.id(), lane);
		return new Activation(watermark((raced != null) ? raced : lane), truncated, null);
	}

	/**
	 * Stop delivery to a subscription at once (unsubscribed or expired): nothing more is
	 * posted, waiting deliveries are dropped.
	 * @param id the subscription's id
	 */
	void forget(String id) {
		Lane lane = this.lanes.remove(id);
		if (lane != null) {
			synchronized (lane) {
				lane.closed = true;
				lane.queue.clear();
			}
		}
	}

	/**
	 * How many deliveries wait, over every subscription: the backlog.
	 * @return the count
	 */
	int getBacklog() {
		int backlog = 0;
		for (Lane lane : this.lanes.values()) {
			synchronized (lane) {
				backlog += lane.queue.size();
			}
		}
		return backlog;
	}

	/**
	 * How many subscriptions this node delivers.
	 * @return the count
	 */
	int getDelivering() {
		return this.lanes.size();
	}

	private void scanSafely() {
		try {
			scan();
		}
		catch (RuntimeException ex) {
			// A failing scan must not end the schedule.
			logger.warn("Reading the event log for webhook delivery failed; retrying at the next scan", ex);
		}
	}

	/** Read what is new in the log and queue it to every subscription it is for. */
	void scan() {
		Instant now = this.log.now();
		for (WebhookSubscription expired : this.store.removeExpired(now)) {
			// A finite TTL lapsed: stop, without an envelope (the draft sends none).
			forget(expired.id());
		}
		if (this.lanes.isEmpty()) {
			return;
		}
		long from = Long.MAX_VALUE;
		for (Lane lane : this.lanes.values()) {
			synchronized (lane) {
				from = Math.min(from, lane.position);
			}
		}
		Slice slice = this.log.after(from);
		for (Lane lane : this.lanes.values()) {
			WebhookSubscription stored = this.store.get(lane.subscription.id(), now);
			if (stored == null) {
				forget(lane.subscription.id());
				continue;
			}
			if (!this.store.delivers(stored.id())) {
				continue;
			}
			boolean start;
			synchronized (lane) {
				lane.subscription = stored;
				if (!stored.active() || lane.terminating || lane.closed) {
					continue;
				}
				fill(lane, slice);
				start = !lane.running && !lane.queue.isEmpty();
				if (start) {
					lane.running = true;
				}
			}
			if (start) {
				submit(lane, 0);
			}
		}
	}

	/** Queue a lane's new events; called holding its monitor. */
	private void fill(Lane lane, Slice slice) {
		WebhookSubscription subscription = lane.subscription;
		if (lane.position < slice.oldest() - 1) {
			// Events were forgotten before this subscription read them.
			lane.position = slice.oldest() - 1;
			lane.queue.addLast(Pending.envelope("gap",
					EventsWire.gapEnvelope(new Cursor(this.log.epoch(), lane.position).encode()), this.codec));
		}
		EventType type = this.types.get(subscription.name());
		boolean checked = false;
		for (LoggedEvent event : slice.events()) {
			if (event.position() <= lane.position) {
				continue;
			}
			lane.position = event.position();
			if (type == null || !event.type().equals(subscription.name())) {
				continue;
			}
			if (!checked) {
				// Authorization again at delivery: judged once per scan that has events
				// for the subscription.
				checked = true;
				if (!this.policy.canSee(lane.principal, type.name())
						|| !this.policy.canSubscribe(lane.principal, type.name(), lane.arguments)) {
					lane.terminating = true;
					lane.queue.clear();
					lane.queue.addLast(Pending.envelope("terminated",
							EventsWire.terminatedEnvelope(EventsWire.FORBIDDEN, "Forbidden",
									Map.of("reason", "the principal may no longer subscribe to " + type.name())),
							this.codec));
					return;
				}
			}
			if (lane.floor != null && event.timestamp().isBefore(lane.floor)) {
				continue;
			}
			JsonNode data = EventMatching.deliverable(this.policy, this.codec, type, event, lane.arguments,
					lane.principal);
			if (data == null) {
				continue;
			}
			WebhookOccurrence occurrence = new WebhookOccurrence(event.eventId(), event.type(),
					event.timestamp().toString(), data, new Cursor(this.log.epoch(), event.position()).encode());
			lane.queue.addLast(
					new Pending(event.eventId(), this.codec.write(occurrence), event.position(), event.timestamp()));
		}
	}

	private void submit(Lane lane, long delayMillis) {
		if (this.closed) {
			return;
		}
		try {
			this.executor.schedule(() -> drain(lane), delayMillis, TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// Closing.
		}
	}

	/** Post a lane's oldest waiting delivery: one in flight per subscription. */
	private void drain(Lane lane) {
		Pending pending;
		WebhookSubscription subscription;
		synchronized (lane) {
			pending = lane.queue.peekFirst();
			if (pending == null || lane.closed || this.closed) {
				lane.running = false;
				return;
			}
			subscription = lane.subscription;
		}
		Instant now = this.wallClock.instant();
		if (pending.firstAttempt == null) {
			pending.firstAttempt = now;
		}
		Answer answer = post(subscription, pending.webhookId, pending.body, now);
		this.stats.attempted();
		long delay = 0;
		boolean ended = false;
		synchronized (lane) {
			if (lane.closed) {
				lane.running = false;
				return;
			}
			if (answer.accepted()) {
				lane.queue.pollFirst();
				lane.lastDeliveryAt = now;
				lane.lastError = null;
				lane.failedSince = null;
				lane.abandonedInRow = 0;
				if (pending.eventTime != null) {
					this.stats.delivered(Duration.between(pending.eventTime, this.log.now()));
				}
				ended = pending.envelope && lane.terminating;
			}
			else {
				String category = answer.category();
				this.stats.failed(category);
				lane.lastError = category;
				if (lane.failedSince == null) {
					lane.failedSince = now;
				}
				pending.attempts++;
				boolean final4xx = answer.status() == 410 || answer.status() == 413;
				boolean exhausted = pending.attempts >= this.retries.maxAttempts()
						|| Duration.between(pending.firstAttempt, now).compareTo(this.retries.window()) >= 0;
				if (final4xx || exhausted) {
					// Abandoned: the watermark passes it; a replay from the cursor can
					// recover it while the log retains it.
					lane.queue.pollFirst();
					this.stats.abandoned();
					ended = pending.envelope && lane.terminating;
					if (!pending.envelope && ++lane.abandonedInRow >= this.retries.suspendAfter()) {
						suspend(lane);
					}
				}
				else {
					this.stats.retried();
					delay = this.retries.backoff(pending.attempts).toMillis();
				}
			}
			if (ended) {
				lane.closed = true;
				lane.queue.clear();
			}
			if (lane.queue.isEmpty() || !lane.subscription.active()) {
				lane.running = false;
			}
		}
		if (ended) {
			this.lanes.remove(subscription.id(), lane);
			this.store.remove(subscription.id());
			return;
		}
		synchronized (lane) {
			if (!lane.running) {
				return;
			}
		}
		submit(lane, delay);
	}

	/**
	 * Suspend a lane: what waits is dropped and will be read again from the watermark
	 * once a refresh reactivates it. Called holding its monitor.
	 */
	private void suspend(Lane lane) {
		this.stats.suspended();
		lane.position = watermarkPosition(lane);
		lane.queue.clear();
		WebhookSubscription suspended = withActive(lane.subscription, false);
		lane.subscription = suspended;
		this.store.put(suspended);
	}

	static WebhookSubscription withActive(WebhookSubscription subscription, boolean active) {
		return new WebhookSubscription(subscription.id(), subscription.principal(), subscription.url(),
				subscription.name(), subscription.arguments(), subscription.secret(), subscription.previousSecret(),
				subscription.previousSecretUntil(), subscription.refreshBefore(), active);
	}

	/**
	 * Post one signed request, through the SSRF-hardened path. Used for verification too.
	 * @param subscription the subscription (its id, URL and secrets)
	 * @param webhookId the {@code webhook-id}
	 * @param body the body, signed as is
	 * @param now the time, for {@code webhook-timestamp}
	 * @return the answer
	 */
	Answer post(WebhookSubscription subscription, String webhookId, byte[] body, Instant now) {
		long timestamp = now.getEpochSecond();
		String signature = EventsWire.SIGNATURE_VERSION
				+ WebhookSecret.parse(subscription.secret()).sign(webhookId, timestamp, body);
		if (subscription.previousSecret() != null && subscription.previousSecretUntil() != null
				&& now.isBefore(subscription.previousSecretUntil())) {
			// Rotation: signed with both, so that a receiver still on the old secret
			// verifies too.
			signature += " " + EventsWire.SIGNATURE_VERSION
					+ WebhookSecret.parse(subscription.previousSecret()).sign(webhookId, timestamp, body);
		}
		Map<String, String> headers = new LinkedHashMap<>();
		headers.put(EventsWire.HEADER_ID, webhookId);
		headers.put(EventsWire.HEADER_TIMESTAMP, Long.toString(timestamp));
		headers.put(EventsWire.HEADER_SIGNATURE, signature);
		headers.put(EventsWire.HEADER_SUBSCRIPTION_ID, subscription.id());
		return this.http.post(URI.create(subscription.url()), headers, body);
	}

	private String watermark(Lane lane) {
		synchronized (lane) {
			return new Cursor(this.log.epoch(), watermarkPosition(lane)).encode();
		}
	}

	/** Called holding the lane's monitor. */
	private static long watermarkPosition(Lane lane) {
		for (Pending pending : lane.queue) {
			if (pending.position >= 0) {
				return pending.position - 1;
			}
		}
		return lane.position;
	}

	@Override
	public void close() {
		this.closed = true;
		WebhookThreads.close(this.executor);
	}

	/**
	 * How delivery to a subscription started or stands.
	 *
	 * @param cursor the watermark
	 * @param truncated whether delivery starts later than the cursor asked for
	 * @param status how delivery fared, for a refresh of a live subscription
	 */
	record Activation(String cursor, boolean truncated, @Nullable DeliveryStatus status) {
	}

	/**
	 * The bounds of retries.
	 *
	 * @param maxAttempts attempts at most
	 * @param window time at most from the first attempt
	 * @param initialBackoff the first delay
	 * @param maxBackoff the longest delay
	 * @param suspendAfter abandoned deliveries in a row that suspend a subscription
	 */
	record Retries(int maxAttempts, Duration window, Duration initialBackoff, Duration maxBackoff, int suspendAfter) {

		Retries {
			if (maxAttempts < 1 || suspendAfter < 1) {
				throw new IllegalArgumentException(
						"mcp.events.webhooks.max-attempts and suspend-after must be at least 1");
			}
		}

		Duration backoff(int failedAttempts) {
			Duration delay = this.initialBackoff.multipliedBy(1L << Math.min(failedAttempts - 1, 20));
			return (delay.compareTo(this.maxBackoff) > 0) ? this.maxBackoff : delay;
		}

	}

	/** One subscription's delivery, guarded by its monitor. */
	private static final class Lane {

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

		Lane(WebhookSubscription subscription, Principal principal, @Nullable Object arguments, long position,
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

	}

	/** A delivery waiting: an event or a control envelope. */
	private static final class Pending {

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
