package io.github.mcpsubscriptions.cluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.session.StoreUnavailableException;
import io.github.mcpsubscriptions.thread.McpThreads;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.SmartLifecycle;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.DefaultStringRedisConnection;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.RedisStreamCommands.XAddOptions;
import org.springframework.data.redis.connection.StringRedisConnection;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.RecordId;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;
import org.springframework.data.redis.connection.stream.StringRecord;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The cluster's change log: one Redis Stream that carries every change, in one total
 * order, and that every node reads.
 * <p>
 * A change published on a node is appended ({@code XADD}, capped at the log size) and
 * reaches this node's dispatcher, like every other node's, only when read back from the
 * log: each node then matches it against the subscriptions of the streams it holds, so
 * Redis work grows with changes, not with notifications. One thread per node reads the
 * log ({@code XREAD BLOCK} on a connection of its own, held for as long as it works, so a
 * read costs one command and no connection set-up).
 * <p>
 * A reader that may have missed entries tells every subscriber of this node to re-read
 * (through the recovery listeners): when Redis was unreachable, when the log was trimmed
 * past the reader's position (a node held back by a pause, a starved CPU or a burst) and
 * when Redis restarted under it (its run id changed, or the log's newest entry is older
 * than the reader's position: the log was lost, and the reader goes on from what is there
 * instead of waiting for an id that will not come).
 *
 * @since 0.1.0
 */
public class RedisChangeLog implements ResourceChangeFeed, SmartLifecycle {

	private static final Log logger = LogFactory.getLog(RedisChangeLog.class);

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final TypeReference<LinkedHashMap<String, Object>> ATTRIBUTES = new TypeReference<>() {
	};

	static final String KIND = "k";

	static final String CHANGE = "c";

	/**
	 * The list of resources changed: every node tells its subscribers that listen for it.
	 */
	static final String RESOURCE_LIST_CHANGED = "l";

	/** A node could not share a change: every subscriber re-reads. */
	static final String RESYNC = "r";

	/**
	 * The URI templates whose subscriptions a resync is for; absent: every subscription.
	 */
	static final String TEMPLATES = "t";

	private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
	};

	/**
	 * Appends the changes whose keys sort after the source's mark, and moves the mark:
	 * KEYS log, mark; ARGV maxlen, node, mode, the mark expected, the templates to
	 * resync, then key, uri, attributes, time per change. Mode {@code check}: a batch
	 * whose first key is at or below the mark appends nothing and returns the mark, for
	 * the source to say whether it went back; {@code skip}: the changes at or below the
	 * mark are dropped (read again after a hand-over); {@code rewind}: if the mark is
	 * still the one expected, a resync of the templates, then every change, from a mark
	 * reset.
	 */
	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> APPEND_ONCE = RedisScript.of("""
			local mark = redis.call('GET', KEYS[2]) or ''
			local mode = ARGV[3]
			if mode == 'rewind' then
				if mark == ARGV[4] then
					redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 'k', 'r', 'n', ARGV[2], 't', ARGV[5])
					mark = ''
				end
			elseif mode == 'check' and mark ~= '' and ARGV[6] ~= nil and ARGV[6] <= mark then
				return {0, mark}
			end
			local top = mark
			local appended = 0
			for i = 6, #ARGV, 4 do
				if ARGV[i] > top then
					redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 'k', 'c', 'u', ARGV[i + 1], 'a', ARGV[i + 2],
						't', ARGV[i + 3], 'n', ARGV[2])
					top = ARGV[i]
					appended = appended + 1
				end
			end
			if top ~= mark then
				redis.call('SET', KEYS[2], top)
			end
			return {appended, ''}
			""", List.class);

	private static final int BATCH = 256;

	private static final Duration MAX_BACK_OFF = Duration.ofSeconds(5);

	/** How often the reader asks whether Redis restarted under it. */
	private static final long SERVER_CHECK_NANOS = Duration.ofSeconds(1).toNanos();

	private final StringRedisTemplate redis;

	private final String key;

	private final int logSize;

	private final Duration pollTimeout;

	private final String nodeName;

	private final Clock clock;

	private final List<Consumer<ResourceChange>> consumers = new CopyOnWriteArrayList<>();

	private final List<RecordListener> recordListeners = new CopyOnWriteArrayList<>();

	private final List<Runnable> resourceListListeners = new CopyOnWriteArrayList<>();

	private final ClusterStats stats;

	private final RedisCalls calls;

	private final List<Runnable> recoveryListeners = new CopyOnWriteArrayList<>();

	private final ExecutorService publisher = McpThreads.singleThread("mcp-cluster-publish");

	private volatile boolean changesLost;

	private volatile @Nullable Thread reader;

	private volatile boolean running;

	private volatile String position = "0-0";

	/** Where the log started when the reader last found it trimmed past its position. */
	private @Nullable String trimmedTo;

	/**
	 * The run id(s) of the Redis server(s) the reader last saw, {@code null} if unknown.
	 */
	private @Nullable String serverId;

	/** Whether Redis answers {@code INFO} (managed services may disable it). */
	private boolean serverIdAvailable = true;

	private long lastServerCheck;

	/**
	 * Create a change log.
	 * @param redis the Redis operations
	 * @param keys the cluster's key names
	 * @param logSize how many entries the log keeps
	 * @param pollTimeout how long one read waits
	 * @param nodeName this node's name
	 * @param stats counts what the log does
	 */
	public RedisChangeLog(StringRedisTemplate redis, ClusterKeys keys, int logSize, Duration pollTimeout,
			String nodeName, ClusterStats stats) {
		if (logSize < 1) {
			throw new IllegalArgumentException("The change log must keep at least 1 entry, was " + logSize);
		}
		this.redis = redis;
		this.key = keys.log();
		this.logSize = logSize;
		this.pollTimeout = pollTimeout;
		this.nodeName = nodeName;
		this.clock = Clock.systemUTC();
		this.stats = stats;
		this.calls = new RedisCalls(stats);
	}

	/**
	 * Publish a change: appended on this node's publishing thread, so the publisher does
	 * no I/O and this node's changes keep their order.
	 */
	@Override
	public void publish(ResourceChange change) {
		onPublishingThread(() -> append(change));
	}

	private void onPublishingThread(Runnable append) {
		try {
			this.publisher.execute(append);
		}
		catch (RejectedExecutionException ex) {
			logger.debug("A change published while the application stops was dropped");
		}
	}

	/**
	 * Publish that the list of resources changed: appended on the publishing thread, and
	 * every node, this one too, tells its subscribers when it reads it. Should Redis be
	 * unreachable, this node's subscribers are told at once, and when Redis is back every
	 * node's re-read their subscriptions, as after a change that could not be shared.
	 */
	@Override
	public void publishResourceListChanged(Runnable thisNode) {
		onPublishingThread(() -> {
			try {
				append(Map.of(KIND, RESOURCE_LIST_CHANGED, "n", this.nodeName));
			}
			catch (StoreUnavailableException ex) {
				this.changesLost = true;
				thisNode.run();
			}
		});
	}

	@Override
	public void subscribeResourceListChanged(Runnable listener) {
		this.resourceListListeners.add(listener);
	}

	private void append(ResourceChange change) {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put(KIND, CHANGE);
		fields.put("u", change.uri());
		if (!change.attributes().isEmpty()) {
			fields.put("a", json.writeValueAsString(change.attributes()));
		}
		fields.put("t", Long.toString(change.publishedAt().toEpochMilli()));
		fields.put("n", this.nodeName);
		try {
			append(fields);
			this.stats.published();
		}
		catch (StoreUnavailableException ex) {
			// Lost for every node: when Redis is back, every subscriber is told to
			// re-read.
			if (!this.changesLost) {
				logger.warn("A change could not be shared through Redis; subscribers will be told to re-read "
						+ "when Redis is back", ex);
			}
			this.changesLost = true;
		}
	}

	/**
	 * Append a record to the log.
	 * @param fields the record
	 * @return its position
	 */
	public String append(Map<String, String> fields) {
		RecordId id = this.calls.call("append to the change log", () -> this.redis.opsForStream()
			.add(MapRecord.create(this.key, fields), XAddOptions.maxlen(this.logSize).approximateTrimming(false)));
		if (id == null) {
			throw new IllegalStateException("Redis returned no id for XADD");
		}
		return id.getValue();
	}

	/**
	 * Appends changes of a source that may hand the same change over twice (a database
	 * capture stopped between appending and saving its position), each at most once: in
	 * one script with the source's mark, a change is appended only if its key sorts after
	 * the last one appended for the source. Synchronous: when it returns, the changes are
	 * in the log.
	 * <p>
	 * A batch that starts at or below the mark is either read again (after a hand-over)
	 * or from a source that went back in time (a database restored from a backup, or a
	 * failover to a replica that lost transactions), whose changes would otherwise be
	 * dropped as already appended: the source says which. When it went back, every
	 * subscriber of its templates is told to re-read (a resync record before the
	 * changes), the mark starts again from the batch, and a WARN and
	 * {@code mcp.cluster.capture.rewinds} say so.
	 * @param source the source's id
	 * @param keys each change's key, sorting in the source's order
	 * @param changes the changes, in the same order
	 * @param templates the URI templates whose subscribers a rewind resyncs
	 * @param wentBack told the mark when the batch starts at or below it: whether the
	 * source's record has not reached it
	 * @return how many changes were appended
	 * @throws StoreUnavailableException if Redis cannot be reached
	 */
	public long appendOnce(String source, List<String> keys, List<ResourceChange> changes, Collection<String> templates,
			Predicate<String> wentBack) {
		if (keys.size() != changes.size()) {
			throw new IllegalArgumentException("One key per change");
		}
		List<String> arguments = new ArrayList<>(5 + changes.size() * 4);
		arguments.add(Integer.toString(this.logSize));
		arguments.add(this.nodeName);
		arguments.add("check");
		arguments.add("");
		arguments.add(json.writeValueAsString(templates));
		for (int i = 0; i < changes.size(); i++) {
			ResourceChange change = changes.get(i);
			arguments.add(keys.get(i));
			arguments.add(change.uri());
			arguments.add(json.writeValueAsString(change.attributes()));
			arguments.add(Long.toString(change.publishedAt().toEpochMilli()));
		}
		List<?> result = appendOnce(source, arguments);
		String mark = String.valueOf(result.get(1));
		if (!mark.isEmpty()) {
			boolean rewound = wentBack.test(mark);
			arguments.set(2, rewound ? "rewind" : "skip");
			arguments.set(3, mark);
			result = appendOnce(source, arguments);
			if (rewound) {
				this.stats.captureRewound();
				logger.warn("The captured database " + source + " went back behind what the MCP cluster's log took "
						+ "from it (its changes now sort at or below " + mark + ", a position it has not reached: "
						+ "a restore from a backup, or a failover that lost transactions). Subscribers of " + templates
						+ " are told to re-read, and its changes are taken from here on; counted in "
						+ "mcp.cluster.capture.rewinds");
			}
		}
		long count = ((Number) result.get(0)).longValue();
		for (long i = 0; i < count; i++) {
			this.stats.published();
		}
		return count;
	}

	private List<?> appendOnce(String source, List<String> arguments) {
		List<?> result = this.calls.call("append captured changes to the change log", () -> this.redis
			.execute(APPEND_ONCE, List.of(this.key, this.capturedKey(source)), arguments.toArray()));
		if (result == null || result.size() != 2) {
			throw new IllegalStateException("Redis returned " + result + " for the captured changes");
		}
		return result;
	}

	private String capturedKey(String source) {
		return this.key + ":captured:" + source;
	}

	/**
	 * Appends a resync for the subscriptions that may cover resources of some URI
	 * templates: every node tells its subscribers of them to re-read. Synchronous.
	 * @param templates the URI templates
	 * @throws StoreUnavailableException if Redis cannot be reached
	 */
	public void appendResync(Collection<String> templates) {
		append(Map.of(KIND, RESYNC, "n", this.nodeName, TEMPLATES, json.writeValueAsString(templates)));
	}

	/**
	 * The URI templates a resync record names, or {@code null} for a resync of every
	 * subscription.
	 * @param fields the record's fields
	 * @return the templates, or {@code null}
	 */
	static @Nullable List<String> resyncTemplates(Map<Object, Object> fields) {
		Object templates = fields.get(TEMPLATES);
		return (templates != null) ? json.readValue(templates.toString(), STRINGS) : null;
	}

	/**
	 * Be told, on the reading thread, when this node may have missed changes: it reaches
	 * Redis again after losing it, the log was trimmed past its position, or Redis
	 * restarted (its data, sessions included, may be gone).
	 * @param listener the listener
	 */
	public void addRecoveryListener(Runnable listener) {
		this.recoveryListeners.add(listener);
	}

	@Override
	public void subscribe(Consumer<ResourceChange> consumer) {
		this.consumers.add(consumer);
	}

	/**
	 * Receive every record of the log that is not a change, in log order, on the reading
	 * thread.
	 * @param listener the listener; it must return quickly
	 */
	public void addRecordListener(RecordListener listener) {
		this.recordListeners.add(listener);
	}

	/**
	 * This node's name in the log and in reports.
	 * @return the name
	 */
	@Override
	public String getNodeName() {
		return this.nodeName;
	}

	/**
	 * The position of the last entry this node has read.
	 * @return the position
	 */
	public String getPosition() {
		return this.position;
	}

	/**
	 * The position of the newest entry in the log, or {@code 0-0} when it is empty.
	 * @return the position
	 */
	public String lastPosition() {
		List<MapRecord<String, Object, Object>> last = this.redis.opsForStream()
			.reverseRange(this.key, Range.unbounded(), Limit.limit().count(1));
		return (last == null || last.isEmpty()) ? "0-0" : last.get(0).getId().getValue();
	}

	private String edge(StringRedisConnection connection, boolean newest) {
		List<StringRecord> edge = newest ? connection.xRevRange(this.key, Range.unbounded(), Limit.limit().count(1))
				: connection.xRange(this.key, Range.unbounded(), Limit.limit().count(1));
		return (edge == null || edge.isEmpty()) ? "0-0" : edge.get(0).getId().getValue();
	}

	@Override
	public void start() {
		// Read from what is there now: a node does not deliver what was published before
		// it started. Fails at start-up when Redis cannot be reached.
		this.position = this.calls.call("read the change log at start-up", this::lastPosition);
		this.running = true;
		this.lastServerCheck = System.nanoTime() - SERVER_CHECK_NANOS;
		Thread thread = McpThreads.thread("mcp-cluster-log", this::readLoop);
		this.reader = thread;
		thread.start();
	}

	private void readLoop() {
		long failures = 0;
		StringRedisConnection connection = null;
		try {
			while (this.running) {
				try {
					if (connection == null) {
						connection = new DefaultStringRedisConnection(
								this.redis.getRequiredConnectionFactory().getConnection());
					}
					// Before the read, so that it never waits for an id of a log that is
					// gone.
					boolean missed = (failures > 0 || System.nanoTime() - this.lastServerCheck >= SERVER_CHECK_NANOS)
							&& restarted(connection);
					List<StringRecord> records = connection.xReadAsString(
							StreamReadOptions.empty().count(BATCH).block(this.pollTimeout),
							StreamOffset.create(this.key, ReadOffset.from(this.position)));
					if (failures > 0) {
						failures = 0;
						missed = true;
						this.stats.connected(true);
						logger.info("The MCP cluster's change log is readable again; telling subscribers to re-read");
					}
					if (this.changesLost) {
						append(Map.of(KIND, RESYNC, "n", this.nodeName));
						this.changesLost = false;
					}
					if (records != null && !records.isEmpty() && trimmedPast(connection)) {
						missed = true;
					}
					if (missed) {
						// Before the entries that follow the gap: an event id after it is
						// never a position a client could resume from silently.
						this.recoveryListeners.forEach(Runnable::run);
					}
					if (records != null) {
						for (StringRecord record : records) {
							this.position = record.getId().getValue();
							handle(record);
						}
					}
				}
				catch (Throwable ex) {
					// An Error too: the node would otherwise stop hearing of changes for
					// good.
					if (!this.running) {
						return;
					}
					connection = close(connection);
					failures++;
					this.stats.error();
					this.stats.connected(false);
					if (failures == 1) {
						logger.warn("Reading the MCP cluster's change log failed; retrying", ex);
					}
					backOff(failures);
				}
			}
		}
		finally {
			close(connection);
		}
	}

	/**
	 * Whether the entries after this node's position were trimmed before it read them,
	 * decided from the log itself, whatever size this node would trim it to (another node
	 * may trim it shorter: a rolling change of the log size). Trimming removes the oldest
	 * entries only, so the log's first entry says: a first entry after the position means
	 * the position itself was trimmed, and with it, but for a reader exactly at the edge,
	 * entries it never read. Asked after every read that returned entries (one
	 * {@code XRANGE} of one entry; it works on every Redis with streams).
	 */
	private boolean trimmedPast(StringRedisConnection connection) {
		if ("0-0".equals(this.position)) {
			// Started on an empty log: nothing was read that a trim could have followed.
			return false;
		}
		String first = edge(connection, false);
		if ("0-0".equals(first) || RedisStreamHistory.compare(first, this.position) <= 0) {
			return false;
		}
		String reported = this.trimmedTo;
		if (reported != null && RedisStreamHistory.compare(first, reported) <= 0) {
			// The entries before the batch read when the gap was found: nothing more was
			// lost.
			return false;
		}
		this.trimmedTo = first;
		this.stats.logGap();
		logger.warn("The MCP cluster's change log was trimmed past this node's position " + this.position
				+ " before it read on (the log now starts at " + first + "): changes may be lost to this node, "
				+ "so its subscribers are told to re-read. Raise mcp.cluster.log-size (on every node: the smallest "
				+ "one trims the log) above the changes published during this node's longest stall.");
		return true;
	}

	/**
	 * Whether Redis restarted under the reader: its run id changed, or the log lost the
	 * entries up to this node's position. The reader then goes on from the log as it is.
	 */
	private boolean restarted(StringRedisConnection connection) {
		this.lastServerCheck = System.nanoTime();
		String known = this.serverId;
		String current = serverId(connection);
		this.serverId = current;
		String newest = edge(connection, true);
		boolean lost = RedisStreamHistory.compare(newest, this.position) < 0;
		if (!lost && (known == null || current == null || known.equals(current))) {
			return false;
		}
		this.stats.redisRestarted();
		logger.warn("Redis restarted under this node"
				+ (lost ? " and lost the MCP cluster's change log (this node " + "had read up to " + this.position
						+ ", the log now ends at " + newest + ")" : "")
				+ ": changes may be lost to this node, so its subscribers are told to re-read");
		if (lost) {
			this.position = newest;
		}
		return true;
	}

	/**
	 * The run ids of the Redis servers behind a connection (one, or one per node of a
	 * Redis Cluster), or {@code null} where {@code INFO} is not allowed.
	 */
	private @Nullable String serverId(StringRedisConnection connection) {
		if (!this.serverIdAvailable) {
			return null;
		}
		Properties info;
		try {
			info = connection.serverCommands().info("server");
		}
		catch (InvalidDataAccessApiUsageException ex) {
			this.serverIdAvailable = false;
			logger.info("Redis does not answer INFO; a restart of Redis is found by its lost change log only", ex);
			return null;
		}
		if (info == null) {
			return null;
		}
		SortedSet<String> ids = new TreeSet<>();
		info.forEach((name, value) -> {
			if (name.toString().endsWith("run_id")) {
				ids.add(name + "=" + value);
			}
		});
		return ids.isEmpty() ? null : String.join(",", ids);
	}

	private static @Nullable StringRedisConnection close(@Nullable StringRedisConnection connection) {
		if (connection != null) {
			try {
				connection.close();
			}
			catch (RuntimeException ex) {
				logger.debug("Could not close a connection to the MCP cluster's change log", ex);
			}
		}
		return null;
	}

	private void backOff(long failures) {
		long millis = Math.min(MAX_BACK_OFF.toMillis(), 100L << Math.min(failures, 6));
		try {
			TimeUnit.MILLISECONDS.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.running = false;
		}
	}

	@SuppressWarnings("unchecked")
	private void handle(StringRecord record) {
		// Read-only from here on: the listeners take the fields as the template returns
		// them.
		Map<Object, Object> fields = (Map<Object, Object>) (Map<?, ?>) record.getValue();
		String kind = String.valueOf(fields.get(KIND));
		String position = record.getId().getValue();
		try {
			if (CHANGE.equals(kind)) {
				ResourceChange change = toChange(position, fields);
				this.stats.received(Duration.between(change.publishedAt(), this.clock.instant()));
				for (Consumer<ResourceChange> consumer : this.consumers) {
					consumer.accept(change);
				}
			}
			else if (RESOURCE_LIST_CHANGED.equals(kind)) {
				for (Runnable listener : this.resourceListListeners) {
					listener.run();
				}
			}
			else {
				for (RecordListener listener : this.recordListeners) {
					listener.onRecord(position, kind, fields);
				}
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Could not handle the MCP cluster log entry " + position, ex);
		}
	}

	static ResourceChange toChange(String position, Map<Object, Object> fields) {
		Object attributes = fields.get("a");
		Map<String, Object> map = (attributes != null) ? json.readValue(attributes.toString(), ATTRIBUTES) : Map.of();
		return new ResourceChange(String.valueOf(fields.get("u")), map,
				Instant.ofEpochMilli(Long.parseLong(String.valueOf(fields.get("t")))), position);
	}

	@Override
	public void stop() {
		this.running = false;
		this.publisher.shutdown();
		Thread thread = this.reader;
		this.reader = null;
		if (thread != null) {
			try {
				thread.join(this.pollTimeout.toMillis() + 1000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.reader != null;
	}

	/**
	 * Told of the log's records that are not changes.
	 *
	 * @since 0.1.0
	 */
	@FunctionalInterface
	public interface RecordListener {

		/**
		 * A record was read.
		 * @param position its position in the log
		 * @param kind its kind
		 * @param fields its fields
		 */
		void onRecord(String position, String kind, Map<Object, Object> fields);

	}

}
