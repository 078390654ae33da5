package io.github.mcpsubscriptions.events;

import java.net.URI;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.mcpsubscriptions.events.EventLog.LoggedEvent;
import io.github.mcpsubscriptions.events.EventLog.Slice;
import io.github.mcpsubscriptions.events.EventsWire.Cursor;
import io.github.mcpsubscriptions.events.EventsWire.DeliveryStatus;
import io.github.mcpsubscriptions.events.EventsWire.WebhookOccurrence;
import io.github.mcpsubscriptions.events.WebhookHttp.Answer;
import io.github.mcpsubscriptions.events.WebhookLane.Pending;
import io.github.mcpsubscriptions.events.WebhookSubscriptionStore.DeliveryState;
import io.github.mcpsubscriptions.events.WebhookSubscriptionStore.Handover;
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
 * <p>
 * With a shared store (a cluster's), every node reads every event, but only the node
 * holding a subscription's lease queues and posts it; it records the watermark in the
 * store as it moves, and a node that takes the subscription over (its node stopped, died
 * or lost the lease: {@link WebhookHandovers}) resumes from there.
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

	private final Map<String, WebhookLane> lanes = new ConcurrentHashMap<>();

	private final WebhookHandovers handovers;

	private volatile boolean failing;

	private volatile boolean closed;

	/** Stopped with the application: no lane is taken or kept. */
	private volatile boolean stopped;

	/** Whether a scan for an append is queued: appends in a burst share it. */
	private final AtomicBoolean scanQueued = new AtomicBoolean();

	private final Object scanning = new Object();

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
		this.handovers = new WebhookHandovers(types, log, codec, store);
	}

	/**
	 * How often a node of a shared store looks for subscriptions no node delivers, and
	 * how long one without a delivery state waits before it is taken over.
	 * @param interval how often
	 * @param grace how long
	 */
	void takeOver(Duration interval, Duration grace) {
		this.handovers.configure(interval, grace);
	}

	/**
	 * Start reading the log.
	 * @param interval how often
	 */
	void start(Duration interval) {
		if (this.store.isShared()) {
			logger.debug("Webhook delivery shares its subscriptions: leases elect the node that delivers each");
		}
		this.executor.scheduleWithFixedDelay(this::scanSafely, interval.toMillis(), interval.toMillis(),
				TimeUnit.MILLISECONDS);
		this.log.whenAppended(this::appended);
	}

	/**
	 * The log grew on this node: scan now rather than at the next scan (which still finds
	 * what other nodes append to a shared log). Appends in a burst share one scan.
	 */
	private void appended() {
		if (this.stopped || this.lanes.isEmpty() || !this.scanQueued.compareAndSet(false, true)) {
			return;
		}
		try {
			this.executor.execute(() -> {
				this.scanQueued.set(false);
				scanSafely();
			});
		}
		catch (RejectedExecutionException ex) {
			// Closing: nothing more is delivered.
			this.scanQueued.set(false);
		}
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
		WebhookLane existing = this.lanes.get(subscription.id());
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
		if (this.store.isShared()) {
			Activation resumed = resume(subscription, principal, arguments);
			if (resumed != null) {
				return resumed;
			}
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
		WebhookLane lane = new WebhookLane(subscription, principal, arguments, start, floor);
		if (this.store.isShared()) {
			// Recorded before the lease is taken: whichever node delivers starts here.
			String at = new Cursor(this.log.epoch(), start).encode();
			this.store.delivered(subscription.id(), new DeliveryState(at, null, null, null));
			lane.persisted = start;
			if (!this.store.delivers(subscription.id())) {
				return new Activation(at, truncated, null);
			}
		}
		WebhookLane raced = this.lanes.putIfAbsent(subscription.id(), lane);
		return new Activation(watermark((raced != null) ? raced : lane), truncated, null);
	}

	/**
	 * A subscription the cluster knows (refreshed through this node, or after this node
	 * restarted): delivery goes on where it stands, here if no node delivers it.
	 */
	private @Nullable Activation resume(WebhookSubscription subscription, Principal principal,
			@Nullable Object arguments) {
		Handover handover = this.store.handover(subscription.id(), this.log.now());
		if (handover == null || handover.state() == null) {
			return null;
		}
		DeliveryState state = handover.state();
		DeliveryStatus status = new DeliveryStatus(subscription.active(), state.lastDeliveryAt(), state.lastError(),
				state.failedSince());
		if (this.store.delivers(subscription.id())) {
			WebhookLane lane = this.handovers.adopt(subscription, principal, arguments, state);
			WebhookLane raced = this.lanes.putIfAbsent(subscription.id(), lane);
			return new Activation(watermark((raced != null) ? raced : lane), false, status);
		}
		return new Activation(state.cursor(), false, status);
	}

	/**
	 * Stop delivery to a subscription at once (unsubscribed or expired): nothing more is
	 * posted, waiting deliveries are dropped.
	 * @param id the subscription's id
	 */
	void forget(String id) {
		WebhookLane lane = this.lanes.remove(id);
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
		for (WebhookLane lane : this.lanes.values()) {
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
		if (this.stopped) {
			return;
		}
		try {
			scan();
			if (this.failing) {
				this.failing = false;
				logger.info("Webhook delivery reads the event log again");
			}
		}
		catch (RuntimeException ex) {
			// A failing scan must not end the schedule; an outage is logged once.
			if (!this.failing) {
				this.failing = true;
				logger.warn("Reading the event log for webhook delivery failed; retrying at every scan", ex);
			}
			else {
				logger.debug("Reading the event log for webhook delivery failed again", ex);
			}
		}
	}

	/**
	 * Read what is new in the log and queue it to every subscription it is for. Scans
	 * follow one another: the scheduled one and one for an append may be due at once.
	 */
	void scan() {
		synchronized (this.scanning) {
			if (!this.stopped) {
				scanOnce();
			}
		}
	}

	private void scanOnce() {
		Instant now = this.log.now();
		for (String expired : this.store.removeExpired(now)) {
			// A finite TTL lapsed: stop, without an envelope (the draft sends none).
			forget(expired);
		}
		if (this.store.isShared() && !this.closed) {
			this.handovers.takeOverOrphans(now, this.lanes);
		}
		if (this.lanes.isEmpty()) {
			return;
		}
		long from = Long.MAX_VALUE;
		for (WebhookLane lane : this.lanes.values()) {
			synchronized (lane) {
				from = Math.min(from, lane.position);
			}
		}
		Slice slice = this.log.after(from);
		for (WebhookLane lane : this.lanes.values()) {
			WebhookSubscription stored = this.store.get(lane.subscription.id(), now);
			if (stored == null) {
				forget(lane.subscription.id());
				continue;
			}
			if (!this.store.delivers(stored.id())) {
				// Another node delivers it now (this one's lease lapsed): it goes on from
				// the
				// recorded cursor.
				forget(stored.id());
				continue;
			}
			boolean start;
			synchronized (lane) {
				if (stored.active() && !lane.subscription.active()) {
					// Resumed by a refresh through another node.
					lane.abandonedInRow = 0;
					lane.lastError = null;
					lane.failedSince = null;
				}
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
			this.handovers.persist(lane);
		}
	}

	/** Queue a lane's new events; called holding its monitor. */
	private void fill(WebhookLane lane, Slice slice) {
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
					terminate(lane, EventsWire.terminatedEnvelope(EventsWire.FORBIDDEN, "Forbidden",
							Map.of("reason", "the principal may no longer subscribe to " + type.name())));
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

	/**
	 * End a lane with a {@code terminated} envelope: nothing else is queued after it.
	 * Called holding its monitor. A POST in flight (the queue's head while the lane runs)
	 * stays, since the drain takes it off the queue once answered.
	 */
	private void terminate(WebhookLane lane, Map<String, Object> envelope) {
		Pending inFlight = lane.running ? lane.queue.peekFirst() : null;
		lane.terminating = true;
		lane.queue.clear();
		if (inFlight != null) {
			lane.queue.addLast(inFlight);
		}
		lane.queue.addLast(Pending.envelope("terminated", envelope, this.codec));
	}

	/**
	 * An event type was removed: its subscriptions this node delivers get a
	 * {@code terminated} envelope ({@code NotFound}) and end.
	 * @param name the type's name
	 */
	void typeRemoved(String name) {
		for (WebhookLane lane : this.lanes.values()) {
			boolean start;
			synchronized (lane) {
				if (!lane.subscription.name().equals(name) || lane.terminating || lane.closed) {
					continue;
				}
				terminate(lane, EventsWire.terminatedEnvelope(EventsWire.NOT_FOUND, "NotFound",
						Map.of("kind", "event", "name", name)));
				start = !lane.running;
				lane.running = true;
			}
			if (start) {
				submit(lane, 0);
			}
		}
	}

	private void submit(WebhookLane lane, long delayMillis) {
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
	private void drain(WebhookLane lane) {
		Pending pending;
		WebhookSubscription subscription;
		synchronized (lane) {
			pending = lane.queue.peekFirst();
			// A lease not renewed for its duration (the scans starved) may be another
			// node's by now: nothing is posted until a scan renews it.
			if (pending == null || lane.closed || this.closed || !this.store.stillDelivers(lane.subscription.id())) {
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
			try {
				this.store.remove(subscription.id());
			}
			catch (RuntimeException ex) {
				logger.warn("The terminated " + subscription + " could not be removed; it expires with its TTL", ex);
			}
			return;
		}
		this.handovers.persist(lane);
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
	private void suspend(WebhookLane lane) {
		this.stats.suspended();
		lane.position = watermarkPosition(lane);
		lane.queue.clear();
		WebhookSubscription suspended = withActive(lane.subscription, false);
		lane.subscription = suspended;
		try {
			this.store.put(suspended);
		}
		catch (RuntimeException ex) {
			// Suspended here still; the next scan reads the stored one back as active.
			logger.warn("The suspension of " + suspended + " could not be recorded", ex);
		}
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

	private String watermark(WebhookLane lane) {
		synchronized (lane) {
			return new Cursor(this.log.epoch(), watermarkPosition(lane)).encode();
		}
	}

	/** Called holding the lane's monitor. */
	private static long watermarkPosition(WebhookLane lane) {
		return lane.watermark();
	}

	/**
	 * Stop delivering the subscriptions of a shared store and give up their leases, so
	 * that other nodes take over at once, from the recorded cursors; called while the
	 * application stops, before its connection to the store closes. Nothing changes for a
	 * store of this node's own.
	 */
	void stopDelivering() {
		if (!this.store.isShared()) {
			return;
		}
		this.stopped = true;
		// After the scan under way, if any: it could take a released lease again.
		synchronized (this.scanning) {
			for (String id : this.lanes.keySet()) {
				forget(id);
				try {
					this.store.release(id);
				}
				catch (RuntimeException ex) {
					logger.debug("The lease of " + id + " could not be released; it lapses", ex);
				}
			}
		}
	}

	/**
	 * Deliver again after {@link #stopDelivering()}: taking over what no node delivers.
	 */
	void startDelivering() {
		this.stopped = false;
	}

	@Override
	public void close() {
		stopDelivering();
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

}
