package io.github.mcpsubscriptions.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.github.mcpsubscriptions.events.McpEventStore;
import io.github.mcpsubscriptions.session.StoreUnavailableException;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The cluster's event log: one Redis Stream that every node appends MCP events to and
 * reads them from, so that a cursor taken on one node resumes on any other, and on the
 * same one after it restarted. Each entry's id is the event's position
 * ({@code <position>-0}), counted in a hash beside the stream that also holds the log's
 * epoch; the stream is trimmed to {@code maxSize} entries on every append
 * ({@code MAXLEN}) and, by the entries' Redis-clock timestamps, to {@code maxAge}
 * ({@code MINID}), on appends and reads. Each operation is one script, so positions,
 * bounds and epoch are read together.
 * <p>
 * Should Redis lose the hash (a restart without persistence, an eviction), the next
 * operation starts a new epoch and drops what is left of the stream: cursors of before
 * are then behind what is retained ({@code truncated}), never misread as positions of the
 * new log. Every call answers {@link StoreUnavailableException} while Redis cannot be
 * reached, and works again as soon as it can.
 *
 * @since 0.1.0
 */
public class RedisEventStore implements McpEventStore {

	/** The helpers of every script: KEYS stream, meta; ARGV[1] an epoch if none. */
	private static final String COMMON = """
			local function now()
				local t = redis.call('TIME')
				return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
			end
			local function position(id)
				return tonumber(string.match(id, '^(%d+)'))
			end
			local function epoch()
				if redis.call('HSETNX', KEYS[2], 'epoch', ARGV[1]) == 1 then
					-- A new log, or one whose bookkeeping was lost: what is left of its
					-- entries belongs to no epoch a cursor can name.
					redis.call('DEL', KEYS[1])
				end
				return redis.call('HGET', KEYS[2], 'epoch')
			end
			local function timestamp(fields)
				for i = 1, #fields, 2 do
					if fields[i] == 't' then
						return tonumber(fields[i + 1])
					end
				end
				return 0
			end
			local function trim(cutoff)
				while true do
					local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 256)
					if #first == 0 then
						return
					end
					for _, entry in ipairs(first) do
						if timestamp(entry[2]) >= cutoff then
							if entry ~= first[1] then
								redis.call('XTRIM', KEYS[1], 'MINID', entry[1])
							end
							return
						end
					end
					redis.call('XTRIM', KEYS[1], 'MINID', string.format('%d-0', position(first[#first][1]) + 1))
				end
			end
			""";

	/**
	 * ARGV epoch, max size, max age (ms), type, data, node: returns epoch, position,
	 * timestamp.
	 */
	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> APPEND = RedisScript.of(COMMON + """
			local e = epoch()
			local t = now()
			local p = redis.call('HINCRBY', KEYS[2], 'seq', 1)
			redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], string.format('%d-0', p), 'y', ARGV[4], 't', t,
				'd', ARGV[5], 'n', ARGV[6])
			trim(t - tonumber(ARGV[3]))
			return {e, p, t}
			""", List.class);

	/**
	 * ARGV as {@link #APPEND}, then the change's position in the change log: appends
	 * nothing (returns an empty list) if an event was appended for it or a later one.
	 */
	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> APPEND_ONCE = RedisScript.of(COMMON + """
			local function later(a, b)
				local am, as = string.match(a, '^(%d+)-(%d+)$')
				local bm, bs = string.match(b, '^(%d+)-(%d+)$')
				if tonumber(am) ~= tonumber(bm) then
					return tonumber(am) > tonumber(bm)
				end
				return tonumber(as) > tonumber(bs)
			end
			local e = epoch()
			local last = redis.call('HGET', KEYS[2], 'change')
			if last and not later(ARGV[7], last) then
				return {}
			end
			redis.call('HSET', KEYS[2], 'change', ARGV[7])
			local t = now()
			local p = redis.call('HINCRBY', KEYS[2], 'seq', 1)
			redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], string.format('%d-0', p), 'y', ARGV[4], 't', t,
				'd', ARGV[5], 'n', ARGV[6])
			trim(t - tonumber(ARGV[3]))
			return {e, p, t}
			""", List.class);

	/**
	 * ARGV epoch, after, max age (ms): returns epoch, head, oldest, then position, type,
	 * timestamp, data per entry after the position.
	 */
	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> READ = RedisScript.of(COMMON + """
			local e = epoch()
			trim(now() - tonumber(ARGV[3]))
			local head = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
			local oldest = head + 1
			local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
			if #first > 0 then
				oldest = position(first[1][1])
			end
			local result = {e, head, oldest}
			local after = tonumber(ARGV[2])
			if after < head then
				for _, entry in ipairs(redis.call('XRANGE', KEYS[1], string.format('%d-0', after + 1), '+')) do
					local fields = entry[2]
					local y, t, d
					for i = 1, #fields, 2 do
						if fields[i] == 'y' then y = fields[i + 1]
						elseif fields[i] == 't' then t = fields[i + 1]
						elseif fields[i] == 'd' then d = fields[i + 1] end
					end
					table.insert(result, position(entry[1]))
					table.insert(result, y)
					table.insert(result, t)
					table.insert(result, d)
				end
			end
			return result
			""", List.class);

	/** ARGV epoch: returns the epoch. */
	private static final RedisScript<String> EPOCH = RedisScript.of(COMMON + "return epoch()", String.class);

	private final StringRedisTemplate redis;

	private final List<String> keys;

	private final int maxSize;

	private final Duration maxAge;

	private final String nodeName;

	private final RedisCalls calls;

	/**
	 * Create the event log's store.
	 * @param redis the Redis operations
	 * @param keys the cluster's key names
	 * @param maxSize how many events the log retains at most
	 * @param maxAge how long it retains an event at most
	 * @param nodeName this node's name, recorded with the events it appends
	 * @param stats counts Redis failures
	 */
	public RedisEventStore(StringRedisTemplate redis, ClusterKeys keys, int maxSize, Duration maxAge, String nodeName,
			ClusterStats stats) {
		if (maxSize < 1) {
			throw new IllegalArgumentException("The event log must retain at least 1 event, was " + maxSize);
		}
		if (maxAge.isNegative() || maxAge.isZero()) {
			throw new IllegalArgumentException("The event log's retention must be positive, was " + maxAge);
		}
		this.redis = redis;
		this.keys = List.of(keys.events(), keys.eventsMeta());
		this.maxSize = maxSize;
		this.maxAge = maxAge;
		this.nodeName = nodeName;
		this.calls = new RedisCalls(stats);
	}

	@Override
	public String epoch() {
		String epoch = this.calls.call("read the event log's epoch",
				() -> this.redis.execute(EPOCH, this.keys, newEpoch()));
		if (epoch == null) {
			throw new IllegalStateException("Redis returned no epoch for the event log");
		}
		return epoch;
	}

	@Override
	public Stored append(String type, String data) {
		List<?> result = this.calls.call("append to the event log",
				() -> this.redis.execute(APPEND, this.keys, newEpoch(), Integer.toString(this.maxSize),
						Long.toString(this.maxAge.toMillis()), type, data, this.nodeName));
		if (result == null || result.size() != 3) {
			throw new IllegalStateException("Redis returned " + result + " for an event appended");
		}
		return new Stored(String.valueOf(result.get(0)), number(result.get(1)), type, number(result.get(2)), data);
	}

	@Override
	public @Nullable Stored appendOnce(String type, String data, String changePosition) {
		List<?> result = this.calls.call("append to the event log",
				() -> this.redis.execute(APPEND_ONCE, this.keys, newEpoch(), Integer.toString(this.maxSize),
						Long.toString(this.maxAge.toMillis()), type, data, this.nodeName, changePosition));
		if (result == null || (result.size() != 3 && !result.isEmpty())) {
			throw new IllegalStateException("Redis returned " + result + " for an event appended");
		}
		return result.isEmpty() ? null
				: new Stored(String.valueOf(result.get(0)), number(result.get(1)), type, number(result.get(2)), data);
	}

	@Override
	public Page after(long position) {
		List<?> result = this.calls.call("read the event log", () -> this.redis.execute(READ, this.keys, newEpoch(),
				Long.toString(position), Long.toString(this.maxAge.toMillis())));
		if (result == null || result.size() < 3 || (result.size() - 3) % 4 != 0) {
			throw new IllegalStateException("Redis returned " + result + " for a read of the event log");
		}
		String epoch = String.valueOf(result.get(0));
		List<Stored> events = new ArrayList<>((result.size() - 3) / 4);
		for (int i = 3; i < result.size(); i += 4) {
			events.add(new Stored(epoch, number(result.get(i)), String.valueOf(result.get(i + 1)),
					number(result.get(i + 2)), String.valueOf(result.get(i + 3))));
		}
		return new Page(epoch, number(result.get(1)), number(result.get(2)), events);
	}

	private static long number(Object value) {
		return (value instanceof Number number) ? number.longValue() : Long.parseLong(String.valueOf(value));
	}

	/** Taken only when the log has none: random, so that no two lifetimes share one. */
	private static String newEpoch() {
		return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
	}

}
