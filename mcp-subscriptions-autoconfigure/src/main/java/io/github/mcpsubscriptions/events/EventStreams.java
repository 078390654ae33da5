package io.github.mcpsubscriptions.events;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsubscriptions.events.EventLog.LoggedEvent;
import io.github.mcpsubscriptions.events.EventLog.Slice;
import io.github.mcpsubscriptions.events.EventMethods.Resumption;
import io.github.mcpsubscriptions.events.EventMethods.Subscription;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcRequest;
import io.github.mcpsubscriptions.notification.DeliveryScheduler;
import io.github.mcpsubscriptions.server.McpRequestDispatcher;
import io.github.mcpsubscriptions.server.McpStreamedMethod;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.context.SmartLifecycle;

/**
 * Push delivery, {@code events/stream} (protocol 2026-07-28): the request's response is a
 * stream that carries its subscription's events as they are recorded. Opened as a poll is
 * answered ({@link EventMethods#subscription}, {@link EventMethods#resume}): an invalid
 * request is a single JSON-RPC error and no stream.
 * <p>
 * Runs on the engine listen streams run on: the transport's non-blocking SSE streams and
 * its heartbeat wheel (which calls each stream's heartbeat once per
 * {@code mcp.events.push.heartbeat-interval}), and the delivery threads of the
 * {@link DeliveryScheduler}, which read the log once per scan for every stream and write
 * each stream's events in turns bounded in bytes, and only while its client takes them.
 * Nothing here is a thread or a timer per stream. The log is read on for the streams that
 * have gone through what they were offered, from the position of the one furthest behind.
 */
final class EventStreams implements McpStreamedMethod, SmartLifecycle {

	private static final Log logger = LogFactory.getLog(EventStreams.class);

	/** The longest heartbeat interval: the draft asks for one at least every 30 s. */
	static final Duration MAX_HEARTBEAT_INTERVAL = Duration.ofSeconds(30);

	/** The most characters of JSON of a request's id, repeated in every message. */
	static final int MAX_REQUEST_ID_CHARS = 256;

	private final EventMethods methods;

	private final DeliveryScheduler scheduler;

	private final Duration heartbeatInterval;

	private final Duration scanInterval;

	private final int maxStreamsPerPrincipal;

	private final Set<EventStream> open = ConcurrentHashMap.newKeySet();

	/** The streams of each authenticated principal, open or about to open. */
	private final Map<String, AtomicInteger> perPrincipal = new ConcurrentHashMap<>();

	private volatile boolean running;

	/** Which start the scan that goes on belongs to: a restart's scan replaces it. */
	private final AtomicInteger generation = new AtomicInteger();

	/** Whether a read for an append is queued: appends in a burst share it. */
	private final AtomicBoolean readQueued = new AtomicBoolean();

	private final Object reading = new Object();

	EventStreams(EventMethods methods, DeliveryScheduler scheduler, Duration heartbeatInterval, Duration scanInterval,
			int maxStreamsPerPrincipal) {
		if (heartbeatInterval.isNegative() || heartbeatInterval.isZero()
				|| heartbeatInterval.compareTo(MAX_HEARTBEAT_INTERVAL) > 0) {
			throw new IllegalArgumentException("mcp.events.push.heartbeat-interval must be more than 0 and at most "
					+ MAX_HEARTBEAT_INTERVAL.toSeconds() + "s, was " + heartbeatInterval);
		}
		if (scanInterval.isNegative() || scanInterval.isZero()) {
			throw new IllegalArgumentException("mcp.events.push.scan-interval must be positive, was " + scanInterval);
		}
		if (maxStreamsPerPrincipal < 1) {
			throw new IllegalArgumentException(
					"mcp.events.push.max-streams-per-principal must be at least 1, was " + maxStreamsPerPrincipal);
		}
		this.methods = methods;
		this.scheduler = scheduler;
		this.heartbeatInterval = heartbeatInterval;
		this.scanInterval = scanInterval;
		this.maxStreamsPerPrincipal = maxStreamsPerPrincipal;
		methods.log().whenAppended(this::appended);
	}

	void register(McpRequestDispatcher dispatcher) {
		dispatcher.addStreamedMethod(EventsWire.STREAM, this);
	}

	/** Start reading the log for the streams. */
	@Override
	public void start() {
		this.running = true;
		int started = this.generation.incrementAndGet();
		this.scheduler.schedule(() -> scan(started), this.scanInterval);
	}

	/**
	 * The log grew on this node: read it now rather than at the next scan (which still
	 * finds what other nodes append to a shared log). Appends in a burst share one read.
	 */
	private void appended() {
		if (this.running && !this.open.isEmpty() && this.readQueued.compareAndSet(false, true)) {
			this.scheduler.execute(() -> {
				this.readQueued.set(false);
				if (this.running) {
					read();
				}
			});
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public Duration heartbeatInterval() {
		return this.heartbeatInterval;
	}

	@Override
	public Call open(JsonRpcRequest request, Caller caller) {
		if (this.methods.codec().writeAsString(request.id()).length() > MAX_REQUEST_ID_CHARS) {
			// Kept as long as the stream lives, and repeated in every message.
			throw EventsWire.invalidParams("the request's id must be at most " + MAX_REQUEST_ID_CHARS
					+ " characters of JSON on an events/stream request");
		}
		Subscription subscription = this.methods.subscription(caller.principal(), request.params(), "push");
		Resumption resumption = this.methods.resume(subscription.cursor());
		// maxAgeMs is ignored without a cursor, as for a poll.
		Instant floor = (subscription.cursor() != null) ? this.methods.floor(subscription) : null;
		boolean truncated = resumption.truncated() || floors(subscription, resumption, floor);
		reserve(caller.principal());
		return new EventStream(this, request.id(), subscription, caller, this.methods.log().epoch(), resumption,
				truncated, floor);
	}

	/**
	 * Whether the floor skips an event the subscription would receive: the draft asks to
	 * say so in the first {@code active}, before any event is written.
	 */
	private boolean floors(Subscription subscription, Resumption resumption, @Nullable Instant floor) {
		if (floor == null) {
			return false;
		}
		for (LoggedEvent event : resumption.slice().events()) {
			if (event.position() > resumption.start() && event.timestamp().isBefore(floor)
					&& this.methods.deliverable(subscription, event) != null) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Count a stream toward its principal's quota. Anonymous streams are not counted: one
	 * quota for every anonymous caller would be a global limit.
	 */
	private void reserve(@Nullable Principal principal) {
		if (principal == null) {
			return;
		}
		AtomicInteger count = this.perPrincipal.computeIfAbsent(principal.getName(), (name) -> new AtomicInteger());
		if (count.incrementAndGet() > this.maxStreamsPerPrincipal) {
			release(principal);
			throw EventsWire.resourceExhausted("subscriptions", this.maxStreamsPerPrincipal);
		}
	}

	void release(@Nullable Principal principal) {
		if (principal == null) {
			return;
		}
		this.perPrincipal.computeIfPresent(principal.getName(),
				(name, count) -> (count.decrementAndGet() <= 0) ? null : count);
	}

	@Override
	public boolean cancel(JsonNode requestId, Caller caller) {
		EventStream match = null;
		for (EventStream stream : this.open) {
			if (stream.isNamedBy(requestId, caller)) {
				if (match != null) {
					// Two of the caller's own: it cannot say which, so neither ends.
					return false;
				}
				match = stream;
			}
		}
		return match != null && match.cancel();
	}

	/**
	 * An event type was removed: its streams end with {@code terminated}
	 * ({@code NotFound}).
	 * @param name the type's name
	 */
	void typeRemoved(String name) {
		for (EventStream stream : this.open) {
			if (stream.typeName().equals(name)) {
				stream.typeRemoved();
			}
		}
	}

	void started(EventStream stream) {
		if (this.open.add(stream)) {
			this.methods.stats().streamOpened();
		}
	}

	void ended(EventStream stream) {
		if (this.open.remove(stream)) {
			this.methods.stats().streamClosed();
		}
	}

	/**
	 * How many push streams are open on this node.
	 * @return the count
	 */
	int getOpenStreamCount() {
		return this.open.size();
	}

	/**
	 * How many push streams of a principal are open (or about to open) on this node.
	 * @param principalName the principal's name
	 * @return the count
	 */
	int getStreamCount(String principalName) {
		AtomicInteger count = this.perPrincipal.get(principalName);
		return (count != null) ? count.get() : 0;
	}

	EventMethods methods() {
		return this.methods;
	}

	DeliveryScheduler scheduler() {
		return this.scheduler;
	}

	/**
	 * One read of the log for every stream, from the position of the one furthest behind,
	 * on a delivery thread; each stream then writes what is new for it on a delivery
	 * thread of its own turn.
	 */
	private void scan(int started) {
		if (!this.running || this.generation.get() != started) {
			return;
		}
		try {
			read();
		}
		finally {
			if (this.running && this.generation.get() == started) {
				this.scheduler.schedule(() -> scan(started), this.scanInterval);
			}
		}
	}

	/**
	 * One read of the log for every stream that is caught up. Reads follow one another (a
	 * scan and a read on an append may be due at once), so that a stream is offered the
	 * log in the order it was read.
	 */
	private void read() {
		synchronized (this.reading) {
			try {
				long from = Long.MAX_VALUE;
				for (EventStream stream : this.open) {
					if (stream.isCaughtUp()) {
						from = Math.min(from, stream.position());
					}
				}
				String epoch = (from != Long.MAX_VALUE) ? this.methods.log().epoch() : null;
				Slice slice = (epoch != null) ? this.methods.log().after(from) : null;
				// A read across a change of epoch is of neither: the next scan reads
				// again.
				if (slice != null && epoch.equals(this.methods.log().epoch())) {
					for (EventStream stream : this.open) {
						if (stream.isCaughtUp()) {
							stream.offer(slice, epoch);
						}
					}
				}
			}
			catch (RuntimeException ex) {
				// A shared log's store may be down: the streams wait, heartbeats go on.
				logger.debug("The event log could not be read for push streams", ex);
			}
		}
	}

	/**
	 * Stop reading the log, and answer every open stream with its result, then close it,
	 * waiting a little for the writes, so that clients can tell a shutdown from a broken
	 * connection. Before the delivery threads stop ({@link SmartLifecycle#DEFAULT_PHASE},
	 * as the listen streams).
	 */
	@Override
	public void stop() {
		this.running = false;
		List<EventStream> streams = List.copyOf(this.open);
		CountDownLatch completed = new CountDownLatch(streams.size());
		streams.forEach((stream) -> stream.complete(completed::countDown));
		try {
			completed.await(2, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
