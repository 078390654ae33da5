package io.github.mcpsubscriptions.cluster;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.mcpsubscriptions.notification.MessageStream;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.notification.Subscriber;
import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.session.ProtocolVersions;
import io.github.mcpsubscriptions.session.SessionStreamHistory;
import io.github.mcpsubscriptions.subscription.CoverageRules;
import io.github.mcpsubscriptions.subscription.SubscriptionIndex;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Event ids and replay of 2025-era GET streams that work on any node. An event id is
 * {@code <session tag>-<stream epoch>-<log position>-<sequence>}: the change log position
 * of the change it reports (or of the last one before it), a sequence within that
 * position, the number of the stream within the session (so ids stay unique when a
 * session's stream moves between nodes), and a random tag of the session (so another
 * session's or a forged id is recognized). A stream that resumes, on whichever node,
 * replays by re-matching the log after the position against the session's subscriptions,
 * the access policy and filters checked again; a position older than the log gets resync
 * notifications.
 * <p>
 * It also applies the log's session records to the streams this node holds: a
 * subscription added or removed on any node, a session ended on any node, a stream opened
 * on another node (one stream per session in the cluster).
 *
 * @since 0.1.0
 */
public class RedisStreamHistory implements SessionStreamHistory, RedisChangeLog.RecordListener {

	private static final Pattern EVENT_ID = Pattern.compile("([0-9a-f]+)-([0-9]+)-([0-9]+-[0-9]+)-([0-9]+)");

	/**
	 * A stream closed: where it was served up to, for the next stream without
	 * {@code Last-Event-ID}; only while the session exists and no newer stream holds it.
	 */
	private static final RedisScript<Long> SERVED = RedisScript.of("""
			if redis.call('hget', KEYS[1], 'h') ~= ARGV[2] then return 0 end
			redis.call('hset', KEYS[1], 'p', ARGV[1])
			redis.call('hdel', KEYS[1], 'h')
			return 1""", Long.class);

	/**
	 * A stream opens: its number, recorded as the one holding the session; 0 if the
	 * session is gone, whose keys must not come back without an expiry.
	 */
	private static final RedisScript<Long> HOLD = RedisScript.of("""
			if redis.call('exists', KEYS[1]) == 0 then return 0 end
			local epoch = redis.call('hincrby', KEYS[1], 'ep', 1)
			redis.call('hset', KEYS[1], 'h', epoch)
			return epoch""", Long.class);

	static final String CLAIM = "g";

	/** How many log entries a replay reads at once. */
	static final int REPLAY_PAGE = 256;

	private static final Log logger = LogFactory.getLog(RedisStreamHistory.class);

	private final StringRedisTemplate redis;

	private final ClusterKeys keys;

	private final RedisChangeLog log;

	private final NotificationEngine engine;

	private final String nodeName;

	private final RedisCalls calls;

	private final ClusterStats stats;

	private final ConcurrentMap<String, StreamState> streams = new ConcurrentHashMap<>();

	private final Supplier<McpSessionManager> sessions;

	private volatile int maxReplay = Integer.MAX_VALUE;

	/**
	 * Create a history.
	 * @param redis the Redis operations
	 * @param keys the cluster's key names
	 * @param log the change log
	 * @param engine matches changes and writes notifications
	 * @param nodeName this node's name
	 * @param sessions the session manager whose streams this history serves
	 * @param stats counts Redis errors and rejected authentications
	 */
	public RedisStreamHistory(StringRedisTemplate redis, ClusterKeys keys, RedisChangeLog log,
			NotificationEngine engine, String nodeName, Supplier<McpSessionManager> sessions, ClusterStats stats) {
		this.calls = new RedisCalls(stats);
		this.stats = stats;
		this.sessions = sessions;
		this.redis = redis;
		this.keys = keys;
		this.log = log;
		this.engine = engine;
		this.nodeName = nodeName;
		log.addRecordListener(this);
		log.addRecoveryListener(() -> sessions.get().keepHeldSessions());
		log.addRecoveryListener(this::resyncAll);
	}

	/**
	 * Tell every subscriber on this node (2025 sessions and 2026 listen streams) to
	 * re-read: changes may have been lost while Redis was unreachable.
	 */
	private void resyncAll() {
		for (Subscriber subscriber : this.engine.getSubscribers()) {
			this.engine.resync(subscriber);
		}
	}

	/**
	 * Set the most notifications one stream opening replays; past it the client is told
	 * to resync instead.
	 * @param maxReplay the bound
	 */
	public void setMaxReplay(int maxReplay) {
		if (maxReplay < 0) {
			throw new IllegalArgumentException("The replay bound must not be negative, was " + maxReplay);
		}
		this.maxReplay = maxReplay;
	}

	/**
	 * How many sessions' streams this node holds.
	 * @return the count
	 */
	public int getStreamCount() {
		return this.streams.size();
	}

	@Override
	public @Nullable String append(McpSession session, @Nullable String position) {
		StreamState state = this.streams.get(session.getId());
		if (state == null) {
			return null;
		}
		return state.next(position);
	}

	@Override
	public NotificationEngine.AttachAction attach(McpSession session, Subscriber subscriber,
			@Nullable String lastEventId) {
		try {
			return this.calls.call("open a stream", () -> doAttach(session, subscriber, lastEventId));
		}
		catch (RuntimeException ex) {
			this.streams.remove(session.getId());
			throw ex;
		}
	}

	private NotificationEngine.AttachAction doAttach(McpSession session, Subscriber subscriber,
			@Nullable String lastEventId) {
		String id = session.getId();
		String sessionKey = this.keys.session(id);
		List<Object> stored = this.redis.opsForHash().multiGet(sessionKey, List.of("tag", "p", "h"));
		Long epoch = this.redis.execute(HOLD, List.of(sessionKey));
		String tag = String.valueOf(stored.get(0));
		// Without Last-Event-ID, a stream starts where the last one was served up to or
		// at the first subscription; while another stream is open, it starts live.
		String served = (stored.get(1) != null && stored.get(2) == null) ? stored.get(1).toString() : null;
		Set<String> subscriptions = this.redis.opsForSet().members(this.keys.subscriptions(id));
		String from = served;
		boolean gap = false;
		if (lastEventId != null) {
			from = positionOf(lastEventId, tag);
			gap = from == null;
		}
		if (from != null) {
			// A position older than the log, or one the log never reached (forged): not a
			// real past position that replay can resume from.
			String oldest = oldestPosition();
			gap = oldest == null || compare(from, oldest) < 0 || compare(from, this.log.lastPosition()) > 0;
		}
		// Live delivery starts before the log is read, so that nothing falls between
		// the replay and live delivery; what both would write, the replay writes.
		StreamState state = new StreamState(tag, (epoch != null) ? epoch : 1,
				(from != null && !gap) ? from : this.log.getPosition());
		this.streams.put(id, state);
		this.log
			.append(Map.of(RedisChangeLog.KIND, CLAIM, "s", id, "n", this.nodeName, "ep", Long.toString(state.epoch)));
		if (subscriptions != null) {
			for (String uri : subscriptions) {
				this.engine.subscribe(subscriber, uri);
			}
		}
		String primeId = state.currentId();
		LogReplay replay = null;
		if (from != null && !gap) {
			String upTo = this.log.lastPosition();
			replay = new LogReplay(from, upTo, id, subscriber, (subscriptions != null) ? subscriptions : Set.of(),
					state);
			state.replayedUpTo(upTo);
		}
		boolean resync = gap;
		boolean resumed = lastEventId != null && !gap;
		LogReplay owed = replay;
		return (target, attachment) -> {
			if (ProtocolVersions.supportsPriming(session.getProtocolVersion())) {
				target.prime(resumed ? lastEventId : primeId);
			}
			if (resync) {
				attachment.queueResync();
				return;
			}
			if (resumed) {
				attachment.countReplay();
			}
			if (owed != null) {
				attachment.replay(target, owed);
			}
		};
	}

	/**
	 * The log position an event id of this session names.
	 * @return the position, or {@code null} when the id is another session's, forged, or
	 * names a position no log has
	 */
	private static @Nullable String positionOf(String eventId, String tag) {
		Matcher matcher = EVENT_ID.matcher(eventId);
		if (!matcher.matches() || !matcher.group(1).equals(tag)) {
			return null;
		}
		String position = matcher.group(3);
		int dash = position.indexOf('-');
		try {
			Long.parseLong(position.substring(0, dash));
			Long.parseLong(position.substring(dash + 1));
			Long.parseLong(matcher.group(4));
			return position;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * A replay by re-matching the log after a position against a session's subscriptions,
	 * read a page at a time and written a notification at a time as the client takes
	 * them: what it holds is one page of the log and one change's notifications, whatever
	 * the log and the subscriptions. Past the most a replay may write, or when the log
	 * has been trimmed under it, the client is told to resync.
	 */
	private final class LogReplay implements NotificationEngine.Replay {

		private final String upTo;

		private final String sessionId;

		private final Subscriber subscriber;

		private final StreamState state;

		private final SubscriptionIndex<Subscriber> index;

		/** The position of the last entry read. */
		private String after;

		private boolean lastPage;

		private List<MapRecord<String, Object, Object>> page = List.of();

		private int inPage;

		private List<String> notifications = List.of();

		private int inChange;

		private String changePosition = "";

		private int written;

		LogReplay(String from, String upTo, String sessionId, Subscriber subscriber, Set<String> subscriptions,
				StreamState state) {
			this.after = from;
			this.upTo = upTo;
			this.sessionId = sessionId;
			this.subscriber = subscriber;
			this.state = state;
			this.index = RedisStreamHistory.this.engine.getIndex().emptyCopy();
			for (String uri : subscriptions) {
				this.index.add(subscriber, uri);
			}
			// A subscription removed after the position was active before its removal.
			forEachEntry(from, (record) -> {
				Map<Object, Object> fields = record.getValue();
				if (RedisSessionStore.UNSUBSCRIBE.equals(fields.get(RedisChangeLog.KIND))
						&& sessionId.equals(fields.get("s"))) {
					this.index.add(subscriber, String.valueOf(fields.get("u")));
				}
			});
		}

		private void forEachEntry(String from, Consumer<MapRecord<String, Object, Object>> action) {
			String position = from;
			while (true) {
				List<MapRecord<String, Object, Object>> records = page(position);
				records.forEach(action);
				if (records.size() < REPLAY_PAGE) {
					return;
				}
				position = records.get(records.size() - 1).getId().getValue();
			}
		}

		private List<MapRecord<String, Object, Object>> page(String position) {
			List<MapRecord<String, Object, Object>> records = RedisStreamHistory.this.calls.call("replay",
					() -> RedisStreamHistory.this.redis.opsForStream()
						.range(RedisStreamHistory.this.keys.log(),
								Range.of(Range.Bound.exclusive(position), Range.Bound.inclusive(this.upTo)),
								Limit.limit().count(REPLAY_PAGE)));
			return (records != null) ? records : List.of();
		}

		@Override
		public boolean writeNext(MessageStream stream, NotificationEngine.Attachment attachment) throws IOException {
			try {
				while (this.inChange >= this.notifications.size()) {
					if (!nextChange()) {
						return false;
					}
				}
			}
			catch (LogTrimmed | RuntimeException ex) {
				if (!(ex instanceof LogTrimmed)) {
					logger.warn("Replaying the MCP change log failed; the client is told to resync", ex);
				}
				return stop(attachment);
			}
			if (this.written >= RedisStreamHistory.this.maxReplay) {
				return stop(attachment);
			}
			String message = this.notifications.get(this.inChange++);
			this.written++;
			stream.send(this.state.replayed(this.changePosition), message);
			return true;
		}

		/**
		 * Move to the next change with notifications for the subscriber, applying the
		 * session's records on the way.
		 * @return {@code false} at the end of the replay
		 */
		private boolean nextChange() throws LogTrimmed {
			this.notifications = List.of();
			this.inChange = 0;
			if (this.inPage >= this.page.size()) {
				if (this.lastPage) {
					return false;
				}
				String before = this.after;
				this.page = page(before);
				this.inPage = 0;
				this.lastPage = this.page.size() < REPLAY_PAGE;
				String oldest = RedisStreamHistory.this.calls.call("replay", RedisStreamHistory.this::oldestPosition);
				if (oldest == null || compare(oldest, before) > 0) {
					// Entries after the position may have been trimmed while the client
					// read.
					throw new LogTrimmed();
				}
				if (this.page.isEmpty()) {
					return false;
				}
				this.after = this.page.get(this.page.size() - 1).getId().getValue();
			}
			MapRecord<String, Object, Object> record = this.page.get(this.inPage++);
			Map<Object, Object> fields = record.getValue();
			String position = record.getId().getValue();
			Object kind = fields.get(RedisChangeLog.KIND);
			if (RedisChangeLog.CHANGE.equals(kind)) {
				ResourceChange change = RedisChangeLog.toChange(position, fields);
				this.notifications = RedisStreamHistory.this.engine.replayMessages(change, this.subscriber, this.index);
				this.changePosition = position;
			}
			else if (this.sessionId.equals(fields.get("s"))) {
				if (RedisSessionStore.SUBSCRIBE.equals(kind)) {
					this.index.add(this.subscriber, String.valueOf(fields.get("u")));
				}
				else if (RedisSessionStore.UNSUBSCRIBE.equals(kind)) {
					this.index.remove(this.subscriber, String.valueOf(fields.get("u")));
				}
			}
			return true;
		}

		/**
		 * Give up replaying: the client re-reads everything, and resumes after the
		 * replay's end.
		 */
		private boolean stop(NotificationEngine.Attachment attachment) {
			this.page = List.of();
			this.notifications = List.of();
			this.state.skipTo(this.upTo);
			attachment.queueResync();
			return false;
		}

	}

	/** The log lost entries a replay had not read yet. */
	private static final class LogTrimmed extends Exception {

		LogTrimmed() {
			super(null, null, false, false);
		}

	}

	private @Nullable String oldestPosition() {
		List<MapRecord<String, Object, Object>> first = this.redis.opsForStream()
			.range(this.keys.log(), Range.unbounded(), Limit.limit().count(1));
		return (first == null || first.isEmpty()) ? null : first.get(0).getId().getValue();
	}

	@Override
	public void detached(McpSession session) {
		StreamState state = this.streams.remove(session.getId());
		if (state != null) {
			this.calls.run("close a stream", () -> this.redis.execute(SERVED,
					List.of(this.keys.session(session.getId())), state.getPosition(), Long.toString(state.epoch)));
		}
	}

	@Override
	public void onRecord(String position, String kind, Map<Object, Object> fields) {
		if (RedisChangeLog.RESYNC.equals(kind)) {
			List<String> templates = RedisChangeLog.resyncTemplates(fields);
			if (templates == null) {
				resyncAll();
			}
			else {
				// A source of some resources lost changes: only their subscriptions
				// re-read.
				this.engine.resync((subscribedUri) -> CoverageRules.mayOverlap(subscribedUri, templates));
			}
			return;
		}
		Object sessionId = fields.get("s");
		if (sessionId == null) {
			return;
		}
		McpSessionManager sessions = this.sessions.get();
		String id = sessionId.toString();
		switch (kind) {
			case RedisSessionStore.SUBSCRIBE, RedisSessionStore.UNSUBSCRIBE -> {
				Subscriber subscriber = sessions.findSubscriber(id);
				if (subscriber != null) {
					String uri = String.valueOf(fields.get("u"));
					if (kind.equals(RedisSessionStore.SUBSCRIBE)) {
						StreamState state = this.streams.get(id);
						// The latest subscribe or stream judges deliveries, in log order.
						if (state != null && state.claimed) {
							subscriber.setPrincipal(PrincipalCodec.principal(fields, this.stats));
						}
						this.engine.subscribe(subscriber, uri);
					}
					else {
						this.engine.unsubscribe(subscriber, uri);
					}
				}
			}
			case RedisSessionStore.END -> {
				this.streams.remove(id);
				sessions.release(id);
			}
			case CLAIM -> {
				StreamState state = this.streams.get(id);
				long epoch = Long.parseLong(String.valueOf(fields.get("ep")));
				if (state != null && epoch == state.epoch && this.nodeName.equals(fields.get("n"))) {
					// Subscribes after this in the log came after the stream's own
					// authentication.
					state.claimed = true;
				}
				else if (state != null && epoch > state.epoch && this.streams.remove(id, state)) {
					// The session's stream opened on another node (or anew here).
					if (!this.nodeName.equals(fields.get("n"))) {
						sessions.release(id);
					}
				}
			}
			default -> {
			}
		}
	}

	/**
	 * Compare two log positions.
	 * @param a one position
	 * @param b another
	 * @return negative, zero or positive as {@code a} is before, at or after {@code b}
	 */
	static int compare(String a, String b) {
		int dashA = a.indexOf('-');
		int dashB = b.indexOf('-');
		int byTime = Long.compare(Long.parseLong(a.substring(0, dashA)), Long.parseLong(b.substring(0, dashB)));
		return (byTime != 0) ? byTime
				: Long.compare(Long.parseLong(a.substring(dashA + 1)), Long.parseLong(b.substring(dashB + 1)));
	}

	/**
	 * The event ids of one stream held here.
	 */
	private static final class StreamState {

		private final String tag;

		private final long epoch;

		private String position;

		private long sequence;

		/** Whether the log has reached the record of this stream's opening. */
		private volatile boolean claimed;

		/** Live notifications up to here were written by the replay. */
		private @Nullable String replayedUpTo;

		StreamState(String tag, long epoch, String position) {
			this.tag = tag;
			this.epoch = epoch;
			this.position = position;
		}

		synchronized String currentId() {
			return this.tag + "-" + this.epoch + "-" + this.position + "-" + this.sequence;
		}

		synchronized String getPosition() {
			return this.position;
		}

		synchronized void replayedUpTo(String upTo) {
			this.replayedUpTo = upTo;
		}

		/** The id of a replayed notification of the change at a position. */
		synchronized String replayed(String changePosition) {
			advance(changePosition);
			return currentId();
		}

		/**
		 * A replay that stopped early: what follows stands after everything it covered.
		 */
		synchronized void skipTo(String upTo) {
			if (compare(upTo, this.position) > 0) {
				this.position = upTo;
				this.sequence = 0;
			}
		}

		private void advance(String changePosition) {
			if (compare(changePosition, this.position) > 0) {
				this.position = changePosition;
				this.sequence = 0;
			}
			else {
				this.sequence++;
			}
		}

		/**
		 * The id of the next event, or {@code null} for a live notification the replay
		 * wrote.
		 */
		synchronized @Nullable String next(@Nullable String changePosition) {
			if (changePosition != null && this.replayedUpTo != null
					&& compare(changePosition, this.replayedUpTo) <= 0) {
				return null;
			}
			if (changePosition != null) {
				advance(changePosition);
			}
			else {
				this.sequence++;
			}
			return currentId();
		}

	}

}
