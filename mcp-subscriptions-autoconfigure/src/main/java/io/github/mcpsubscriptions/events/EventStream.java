package io.github.mcpsubscriptions.events;

import java.io.IOException;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.mcpsubscriptions.events.EventLog.LoggedEvent;
import io.github.mcpsubscriptions.events.EventLog.Slice;
import io.github.mcpsubscriptions.events.EventMethods.Resumption;
import io.github.mcpsubscriptions.events.EventMethods.Subscription;
import io.github.mcpsubscriptions.events.EventsWire.Cursor;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcError;
import io.github.mcpsubscriptions.notification.MessageStream;
import io.github.mcpsubscriptions.server.McpStreamedMethod;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One push subscription, alive exactly as long as its {@code events/stream} request's
 * stream. Its messages are written by one drain at a time, on a delivery thread, in the
 * order the draft gives: {@code active} first (again after a gap), then its events after
 * the cursor in the log's order, heartbeats with the position the log was read up to,
 * and, when the subscription may no longer be served, {@code terminated}, the result and
 * the end of the stream. A drain writes only while the client takes what it was given
 * ({@link MessageStream#whenWritable}), at most one batch of bytes per turn: a replay is
 * paced by the client, and a slow client holds no thread.
 * <p>
 * Authorization is judged again at every turn that finds events of its type and at every
 * heartbeat: {@code canSee} (else {@code NotFound}, the type is gone for the principal)
 * and {@code canSubscribe} (else {@code Forbidden}), and {@code canReceive} per event.
 */
final class EventStream implements McpStreamedMethod.Call {

	/** The most bytes one turn writes before it lets other streams have the thread. */
	static final int MAX_TURN_BYTES = 64 * 1024;

	private final EventStreams streams;

	private final EventMethods methods;

	private final JsonRpcCodec codec;

	private final JsonNode requestId;

	private final Map<String, Object> meta;

	private final Subscription subscription;

	private final McpStreamedMethod.Caller caller;

	private final @Nullable Instant floor;

	private final AtomicBoolean scheduled = new AtomicBoolean();

	private final AtomicBoolean released = new AtomicBoolean();

	/** The newest read of the log offered to it. */
	private volatile Offer offered;

	private volatile boolean heartbeatDue;

	private volatile boolean completing;

	/** Its event type was removed: it ends with {@code NotFound}. */
	private volatile boolean typeRemoved;

	/** Run once the result is written at a shutdown, or the stream ended. */
	private volatile @Nullable Runnable whenDone;

	private final AtomicBoolean done = new AtomicBoolean();

	/**
	 * Whether it has gone through the last read of the log offered to it: only then does
	 * the scan read on for it, so that a stream still going through a replay (paced by
	 * its client) does not have the log read again and again from its position.
	 */
	private volatile boolean caughtUp;

	private volatile @Nullable MessageStream stream;

	// The drain's state, guarded by this: one drain at a time.

	/** The log's epoch its position is in; read by the scan. */
	private volatile String epoch;

	/** The position it has written and checked up to; read by the scan. */
	private volatile long position;

	/** The read of the log it is going through, and the index of the next event. */
	private Offer current;

	private int index;

	/** The {@code truncated} of an {@code active} still to write, or {@code null}. */
	private @Nullable Boolean pendingActive;

	/** Why it ends, once it must: {@code terminated} and the result are written. */
	private @Nullable JsonRpcError terminal;

	private boolean finished;

	/** Whether this turn has judged its authorization already. */
	private boolean judged;

	EventStream(EventStreams streams, JsonNode requestId, Subscription subscription, McpStreamedMethod.Caller caller,
			String epoch, Resumption resumption, boolean truncated, @Nullable Instant floor) {
		this.streams = streams;
		this.methods = streams.methods();
		this.codec = this.methods.codec();
		this.requestId = requestId;
		this.meta = EventsWire.streamMeta(requestId);
		this.subscription = subscription;
		this.caller = caller;
		this.floor = floor;
		this.epoch = epoch;
		this.position = resumption.start();
		this.pendingActive = truncated;
		this.current = new Offer(resumption.slice(), epoch);
		this.offered = this.current;
		this.index = firstAfter(resumption.slice().events(), resumption.start());
	}

	@Override
	public void start(MessageStream stream) {
		this.stream = stream;
		this.streams.started(this);
		if (!stream.isOpen()) {
			// Closed before it was watched: its end may have been told already.
			ended();
			return;
		}
		wake();
	}

	@Override
	public void heartbeat() {
		this.heartbeatDue = true;
		wake();
	}

	@Override
	public void ended() {
		this.streams.ended(this);
		release();
		done();
	}

	private void done() {
		Runnable then = this.whenDone;
		if (then != null && this.done.compareAndSet(false, true)) {
			then.run();
		}
	}

	@Override
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			this.streams.release(this.subscription.principal());
		}
	}

	/**
	 * A read of the log from the scan: a turn follows if it holds something new.
	 * @param slice the log after a position at or before this stream's
	 * @param logEpoch the log's epoch when it was read
	 */
	void offer(Slice slice, String logEpoch) {
		this.offered = new Offer(slice, logEpoch);
		if (slice.head() > this.position || !logEpoch.equals(this.epoch)) {
			wake();
		}
	}

	/**
	 * Answer the request with its result and close: the application stops.
	 * @param then run once the result is written, or the stream ended
	 */
	void complete(Runnable then) {
		this.whenDone = then;
		this.completing = true;
		if (this.released.get() || this.finished) {
			done();
			return;
		}
		wake();
	}

	String typeName() {
		return this.subscription.type().name();
	}

	/** Its event type is gone: {@code terminated} with {@code NotFound}, then the end. */
	void typeRemoved() {
		this.typeRemoved = true;
		wake();
	}

	long position() {
		return this.position;
	}

	boolean isCaughtUp() {
		return this.caughtUp;
	}

	/**
	 * Whether a {@code notifications/cancelled} names this stream: its request's id, over
	 * its own connection, from its principal (anonymous: anonymous, from its address).
	 */
	boolean isNamedBy(JsonNode id, McpStreamedMethod.Caller canceller) {
		if (!this.requestId.equals(id) || canceller.connection() == null
				|| !canceller.connection().equals(this.caller.connection())) {
			return false;
		}
		Principal principal = this.caller.principal();
		if (principal == null) {
			return canceller.principal() == null && this.caller.address().equals(canceller.address());
		}
		return canceller.principal() != null && principal.getName().equals(canceller.principal().getName());
	}

	/** The client cancelled: nothing more is written, no result either. */
	boolean cancel() {
		MessageStream open = this.stream;
		if (open == null || !open.isOpen()) {
			return false;
		}
		open.close();
		return true;
	}

	private void wake() {
		if (this.scheduled.compareAndSet(false, true)) {
			this.streams.scheduler().execute(this::drain);
		}
	}

	/** One turn, on a delivery thread. */
	private void drain() {
		this.scheduled.set(false);
		MessageStream target = this.stream;
		if (target == null || this.released.get()) {
			return;
		}
		synchronized (this) {
			if (this.finished || !target.isOpen()) {
				return;
			}
			if (!target.whenWritable(this::wake)) {
				// The client has not taken the last turn yet: the next waits for it.
				return;
			}
			take(this.offered);
			this.judged = false;
			boolean more;
			try {
				target.sendBatch(MAX_TURN_BYTES, this::writeNext);
				more = !this.finished && hasMore();
			}
			catch (IOException ex) {
				// The client is gone: the stream tells its end.
				return;
			}
			this.caughtUp = this.index >= this.current.slice().events().size();
			if (this.finished) {
				target.closeForGood();
				done();
			}
			else if (more) {
				wake();
			}
		}
	}

	/** Go on from a newer read of the log; a gap, if this stream fell behind it. */
	private void take(Offer offer) {
		if (offer == this.current) {
			return;
		}
		Slice slice = offer.slice();
		if (!offer.epoch().equals(this.epoch)) {
			// The log forgot everything (a shared store lost it): resume from the
			// start of the new one, which the next scan reads (this read began at a
			// position of the old one).
			this.epoch = offer.epoch();
			this.position = 0;
			this.pendingActive = true;
			this.current = new Offer(new Slice(0, 1, List.of()), offer.epoch());
			this.index = 0;
			return;
		}
		if (this.position < slice.oldest() - 1) {
			// The log forgot events this stream had not read (a client too slow).
			this.position = slice.oldest() - 1;
			this.pendingActive = true;
		}
		this.current = offer;
		this.index = firstAfter(slice.events(), this.position);
	}

	private boolean hasMore() {
		return this.pendingActive != null || this.heartbeatDue || this.completing || this.terminal != null
				|| this.typeRemoved || this.index < this.current.slice().events().size();
	}

	/** Write the next message of the turn, if there is one. */
	private boolean writeNext(MessageStream target) throws IOException {
		if (this.finished) {
			return false;
		}
		if (this.pendingActive != null) {
			send(target, EventsWire.active(cursor(), this.pendingActive, this.meta));
			this.pendingActive = null;
			return true;
		}
		if (this.typeRemoved && this.terminal == null) {
			this.terminal = EventsWire.notFoundEvent(this.subscription.type().name()).getError();
		}
		if (this.terminal != null || this.completing) {
			if (this.terminal != null) {
				send(target, EventsWire.terminated(this.terminal, this.meta));
			}
			send(target, EventsWire.streamResult(this.requestId, this.meta));
			this.finished = true;
			return false;
		}
		List<LoggedEvent> events = this.current.slice().events();
		while (this.index < events.size()) {
			LoggedEvent event = events.get(this.index++);
			if (event.position() <= this.position) {
				continue;
			}
			if (event.type().equals(this.subscription.type().name()) && !judge()) {
				// Not this event, nor any after it: the subscription ends here.
				this.index--;
				return writeNext(target);
			}
			JsonNode data = this.methods.deliverable(this.subscription, event);
			this.position = event.position();
			if (data == null || (this.floor != null && event.timestamp().isBefore(this.floor))) {
				continue;
			}
			send(target, EventsWire.event(event.eventId(), event.type(), event.timestamp().toString(), data, cursor(),
					this.meta));
			this.methods.stats().pushed(Duration.between(event.timestamp(), this.methods.log().now()));
			return true;
		}
		// Read up to the head, whatever matched.
		this.position = Math.max(this.position, this.current.slice().head());
		if (this.heartbeatDue) {
			this.heartbeatDue = false;
			if (!judge()) {
				return writeNext(target);
			}
			send(target, EventsWire.heartbeat(cursor(), this.meta));
			return true;
		}
		return false;
	}

	/**
	 * Whether the subscription may still be served, judged once per turn; if not, why it
	 * ends.
	 */
	private boolean judge() {
		if (this.judged) {
			return this.terminal == null;
		}
		this.judged = true;
		String name = this.subscription.type().name();
		Principal principal = this.subscription.principal();
		McpEventAccessPolicy policy = this.methods.policy();
		if (!policy.canSee(principal, name)) {
			this.terminal = EventsWire.notFoundEvent(name).getError();
		}
		else if (!policy.canSubscribe(principal, name, this.subscription.arguments())) {
			this.terminal = EventsWire.forbidden(name).getError();
		}
		return this.terminal == null;
	}

	private String cursor() {
		return new Cursor(this.epoch, this.position).encode();
	}

	private void send(MessageStream target, Object message) throws IOException {
		target.send(null, this.codec.writeAsString(message));
	}

	/** The index of the first event after a position. */
	private static int firstAfter(List<LoggedEvent> events, long position) {
		int low = 0;
		int high = events.size();
		while (low < high) {
			int middle = (low + high) >>> 1;
			if (events.get(middle).position() <= position) {
				low = middle + 1;
			}
			else {
				high = middle;
			}
		}
		return low;
	}

	/** A read of the log, and the epoch it was read in. */
	private record Offer(Slice slice, String epoch) {
	}

}
