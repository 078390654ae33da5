package io.github.mcpsubscriptions.cluster;

import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;

import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.SessionStore;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A {@link SessionStore} in Redis, shared by the nodes of a cluster. A session is a hash
 * (negotiated version, client info, principal name, times) and a set of subscriptions in
 * the same slot, both expiring after the idle timeout unless used; a sorted set by expiry
 * time counts the sessions for {@code mcp.sessions.max}. Subscribing, unsubscribing and
 * ending go into the change log too, so that the node holding the session's stream learns
 * of them in order with the changes.
 * <p>
 * Each node keeps the session objects it has served, refreshed from Redis on every
 * lookup: a session that is gone from Redis is gone here.
 *
 * @since 0.1.0
 */
public class RedisSessionStore implements SessionStore {

	private static final JsonMapper json = JsonMapper.builder().build();

	/**
	 * Updates a session only while it exists: a late touch must not bring back a session
	 * that ended.
	 */
	private static final RedisScript<Long> TOUCH = RedisScript.of("""
			if redis.call('exists', KEYS[1]) == 0 then return 0 end
			redis.call('hset', KEYS[1], unpack(ARGV, 2))
			redis.call('pexpire', KEYS[1], ARGV[1])
			redis.call('pexpire', KEYS[2], ARGV[1])
			return 1""", Long.class);

	/**
	 * Creates a session: its state and its expiry in one step, so no crash leaves it
	 * without one.
	 */
	private static final RedisScript<Long> CREATE = RedisScript.of("""
			if redis.call('exists', KEYS[1]) == 1 then return 0 end
			redis.call('hset', KEYS[1], unpack(ARGV, 2))
			redis.call('pexpire', KEYS[1], ARGV[1])
			return 1""", Long.class);

	/**
	 * Adds subscription ARGV[1] while the session exists: 1 if added, 0 if it was there,
	 * -1 if the session is gone (a subscribe that raced its end must not bring back its
	 * keys, without an expiry).
	 */
	private static final RedisScript<Long> ADD = RedisScript.of("""
			if redis.call('exists', KEYS[1]) == 0 then return -1 end
			local added = redis.call('sadd', KEYS[2], ARGV[1])
			redis.call('pexpire', KEYS[2], ARGV[2])
			return added""", Long.class);

	/** Sets field ARGV[1] to ARGV[2] unless set, while the session exists. */
	private static final RedisScript<Long> SET_ONCE = RedisScript.of("""
			if redis.call('exists', KEYS[1]) == 0 then return 0 end
			return redis.call('hsetnx', KEYS[1], ARGV[1], ARGV[2])""", Long.class);

	/**
	 * Adds ARGV[2] to the count of session ARGV[1] and to the total; never takes a
	 * session below zero, so that a decrement after the session was forgotten takes
	 * nothing from the others: the total stays the sum of the counts.
	 */
	private static final RedisScript<Long> COUNT = RedisScript.of("""
			local count = tonumber(redis.call('hget', KEYS[1], ARGV[1]) or '0')
			local delta = math.max(tonumber(ARGV[2]), -count)
			if delta == 0 then return 0 end
			if count + delta == 0 then redis.call('hdel', KEYS[1], ARGV[1])
			else redis.call('hincrby', KEYS[1], ARGV[1], delta) end
			local total = redis.call('incrby', KEYS[2], delta)
			if total <= 0 then redis.call('del', KEYS[2]) return 0 end
			return total""", Long.class);

	/**
	 * Forgets sessions (ARGV[2..], and with ARGV[1] = 1 every one whose expiry has passed
	 * ARGV[3]): out of the count of sessions, their subscriptions out of the total. One
	 * script, so that two nodes forgetting one session subtract its count once.
	 */
	private static final RedisScript<Long> FORGET = RedisScript.of("""
			local ids = {}
			if ARGV[1] == '1' then ids = redis.call('zrangebyscore', KEYS[1], 0, ARGV[2])
			else for i = 2, #ARGV do ids[#ids + 1] = ARGV[i] end end
			for _, id in ipairs(ids) do
				local count = redis.call('hget', KEYS[2], id)
				if count then
					redis.call('hdel', KEYS[2], id)
					if redis.call('decrby', KEYS[3], count) <= 0 then redis.call('del', KEYS[3]) end
				end
				redis.call('zrem', KEYS[1], id)
			end
			return #ids""", Long.class);

	static final String END = "e";

	static final String SUBSCRIBE = "s";

	static final String UNSUBSCRIBE = "u";

	private final StringRedisTemplate redis;

	private final ClusterKeys keys;

	private final RedisChangeLog log;

	private final Duration idleTimeout;

	private final Clock clock;

	private final RedisCalls calls;

	private final ConcurrentMap<String, McpSession> local = new ConcurrentHashMap<>();

	/**
	 * Create a store.
	 * @param redis the Redis operations
	 * @param keys the cluster's key names
	 * @param log the change log
	 * @param idleTimeout how long an unused session lives
	 * @param clock the clock
	 * @param stats counts Redis errors
	 */
	public RedisSessionStore(StringRedisTemplate redis, ClusterKeys keys, RedisChangeLog log, Duration idleTimeout,
			Clock clock, ClusterStats stats) {
		this.calls = new RedisCalls(stats);
		this.redis = redis;
		this.keys = keys;
		this.log = log;
		this.idleTimeout = idleTimeout;
		this.clock = clock;
	}

	@Override
	public boolean isShared() {
		return true;
	}

	@Override
	public void save(McpSession session) {
		this.calls.run("save a session", () -> doSave(session));
	}

	private void doSave(McpSession session) {
		String id = session.getId();
		String key = this.keys.session(id);
		if (this.local.putIfAbsent(id, session) == null && session.getCreatedAt().equals(session.getLastAccessedAt())
				&& !Boolean.TRUE.equals(this.redis.hasKey(key))) {
			Map<String, String> fields = new LinkedHashMap<>(mutableFields(session));
			fields.put("v", session.getProtocolVersion());
			fields.put("ci", json.writeValueAsString(session.getClientInfo()));
			fields.put("cc", json.writeValueAsString(session.getClientCapabilities()));
			if (session.getPrincipalName() != null) {
				fields.put("pr", session.getPrincipalName());
			}
			fields.put("c", Long.toString(session.getCreatedAt().toEpochMilli()));
			fields.put("tag", Long.toHexString(ThreadLocalRandom.current().nextLong()));
			this.redis.execute(CREATE, List.of(key), withFields(this.idleTimeout.toMillis(), fields));
		}
		else if (!touch(session)) {
			return;
		}
		index(session);
	}

	/**
	 * Saves a session that is still stored, and only then: one script checks and writes,
	 * so a request that raced the session's end cannot bring it back.
	 */
	@Override
	public boolean replace(McpSession session) {
		return this.calls.call("save a session", () -> {
			if (!touch(session)) {
				return false;
			}
			index(session);
			return true;
		});
	}

	private boolean touch(McpSession session) {
		String id = session.getId();
		Long updated = this.redis.execute(TOUCH, List.of(this.keys.session(id), this.keys.subscriptions(id)),
				withFields(this.idleTimeout.toMillis(), mutableFields(session)));
		if (updated == null || updated == 0) {
			this.local.remove(id);
			return false;
		}
		return true;
	}

	/** Where the session is counted: for the cluster, and for its principal. */
	private void index(McpSession session) {
		String id = session.getId();
		long expiresAt = session.getLastAccessedAt().toEpochMilli() + this.idleTimeout.toMillis();
		this.redis.opsForZSet().add(this.keys.sessions(), id, expiresAt);
		String principal = session.getPrincipalName();
		if (principal != null) {
			String principalKey = this.keys.principalSessions(principal);
			this.redis.opsForZSet().add(principalKey, id, expiresAt);
			this.redis.expire(principalKey, this.idleTimeout);
		}
		if (forgetIfEnded(id) && principal != null) {
			this.redis.opsForZSet().remove(this.keys.principalSessions(principal), id);
		}
	}

	/**
	 * Undo what was counted for a session that ended meanwhile. The counts are in other
	 * slots than the session, so not in the script that checked it exists: an end between
	 * the two has either forgotten the session after the count (nothing to do) or before
	 * it, and then the session is gone by now and is forgotten here. Forgetting twice
	 * takes nothing twice.
	 * @return whether the session had ended
	 */
	private boolean forgetIfEnded(String id) {
		if (Boolean.TRUE.equals(this.redis.hasKey(this.keys.session(id)))) {
			return false;
		}
		forget("0", id);
		return true;
	}

	private static Object[] withFields(long idleMillis, Map<String, String> fields) {
		List<String> args = new ArrayList<>();
		args.add(Long.toString(idleMillis));
		fields.forEach((name, value) -> {
			args.add(name);
			args.add(value);
		});
		return args.toArray();
	}

	private static Map<String, String> mutableFields(McpSession session) {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("a", Long.toString(session.getLastAccessedAt().toEpochMilli()));
		fields.put("i", session.isInitialized() ? "1" : "0");
		if (session.getLogLevel() != null) {
			fields.put("l", session.getLogLevel());
		}
		return fields;
	}

	@Override
	public @Nullable McpSession find(String id) {
		return this.calls.call("find a session", () -> doFind(id));
	}

	private @Nullable McpSession doFind(String id) {
		Map<Object, Object> fields = this.redis.opsForHash().entries(this.keys.session(id));
		if (fields.isEmpty() || fields.get("v") == null) {
			this.local.remove(id);
			return null;
		}
		McpSession session = this.local.computeIfAbsent(id, (key) -> toSession(key, fields));
		Instant lastAccessed = Instant.ofEpochMilli(Long.parseLong(String.valueOf(fields.get("a"))));
		if (lastAccessed.isAfter(session.getLastAccessedAt())) {
			session.setLastAccessedAt(lastAccessed);
		}
		if ("1".equals(fields.get("i"))) {
			session.markInitialized();
		}
		Object level = fields.get("l");
		if (level != null) {
			session.setLogLevel(level.toString());
		}
		return session;
	}

	private static McpSession toSession(String id, Map<Object, Object> fields) {
		Object principal = fields.get("pr");
		return new McpSession(id, String.valueOf(fields.get("v")), readJson(fields.get("ci")),
				readJson(fields.get("cc")), (principal != null) ? principal.toString() : null,
				Instant.ofEpochMilli(Long.parseLong(String.valueOf(fields.get("c")))), 1);
	}

	private static JsonNode readJson(@Nullable Object value) {
		return json.readTree((value != null) ? value.toString() : "{}");
	}

	@Override
	public @Nullable McpSession remove(String id) {
		return this.calls.call("end a session", () -> doRemove(id));
	}

	private @Nullable McpSession doRemove(String id) {
		McpSession session = doFind(id);
		this.local.remove(id);
		Long deleted = this.redis.delete(List.of(this.keys.session(id), this.keys.subscriptions(id)));
		forget("0", id);
		if (session != null && session.getPrincipalName() != null) {
			this.redis.opsForZSet().remove(this.keys.principalSessions(session.getPrincipalName()), id);
		}
		if (session == null || deleted == null || deleted == 0) {
			return null;
		}
		this.log.append(Map.of(RedisChangeLog.KIND, END, "s", id));
		return session;
	}

	/**
	 * The sessions this node has served that still exist, for idle expiry: sessions no
	 * node serves any more expire in Redis by themselves.
	 */
	@Override
	public Collection<McpSession> findAll() {
		// Sessions whose node died, or a touch that raced an end, leave a stale entry.
		this.calls.run("prune sessions", this::forgetExpired);
		List<McpSession> sessions = new ArrayList<>();
		for (String id : List.copyOf(this.local.keySet())) {
			McpSession session = find(id);
			if (session != null) {
				sessions.add(session);
			}
		}
		return sessions;
	}

	@Override
	public int count() {
		return this.calls.call("count sessions", this::doCount);
	}

	private int doCount() {
		forgetExpired();
		Long count = this.redis.opsForZSet().zCard(this.keys.sessions());
		return (count != null) ? count.intValue() : 0;
	}

	private void forgetExpired() {
		forget("1", Long.toString(this.clock.millis()));
	}

	private void forget(String expired, String argument) {
		this.redis.execute(FORGET,
				List.of(this.keys.sessions(), this.keys.subscriptionCounts(), this.keys.subscriptionTotal()), expired,
				argument);
	}

	/**
	 * Counts the subscriptions of every session of the cluster: a total kept with the
	 * subscriptions, from which a session's count goes when it ends or expires.
	 */
	@Override
	public int countSubscriptions() {
		return this.calls.call("count subscriptions", () -> {
			forgetExpired();
			String total = this.redis.opsForValue().get(this.keys.subscriptionTotal());
			return (total != null) ? Integer.parseInt(total) : 0;
		});
	}

	private void count(String sessionId, int delta) {
		this.redis.execute(COUNT, List.of(this.keys.subscriptionCounts(), this.keys.subscriptionTotal()), sessionId,
				Integer.toString(delta));
	}

	/**
	 * Counts the principal's sessions on every node: a sorted set per principal, pruned
	 * of sessions past their expiry (a session that ends removes itself from it).
	 */
	@Override
	public int countByPrincipal(String principalName) {
		return this.calls.call("count a principal's sessions", () -> principalSessions(principalName).size());
	}

	@Override
	public int countSubscriptionsByPrincipal(String principalName) {
		return this.calls.call("count a principal's subscriptions", () -> {
			int count = 0;
			for (String id : principalSessions(principalName)) {
				Long size = this.redis.opsForSet().size(this.keys.subscriptions(id));
				count += (size != null) ? size.intValue() : 0;
			}
			return count;
		});
	}

	private Set<String> principalSessions(String principalName) {
		String key = this.keys.principalSessions(principalName);
		this.redis.opsForZSet().removeRangeByScore(key, 0, this.clock.millis());
		Set<String> ids = this.redis.opsForZSet().range(key, 0, -1);
		return (ids != null) ? ids : Set.of();
	}

	@Override
	public boolean addSubscription(McpSession session, String uri) {
		String name = session.getPrincipalName();
		return addSubscription(session, uri, (name != null) ? new PrincipalCodec.NamedPrincipal(name) : null);
	}

	/**
	 * Subscribes while the session exists, and records the subscribe in the log with the
	 * request's authentication, a re-subscribe too, for the node holding the stream.
	 */
	@Override
	public boolean addSubscription(McpSession session, String uri, @Nullable Principal principal) {
		return this.calls.call("subscribe", () -> doAddSubscription(session, uri, principal));
	}

	private boolean doAddSubscription(McpSession session, String uri, @Nullable Principal principal) {
		String id = session.getId();
		String sessionKey = this.keys.session(id);
		Long result = this.redis.execute(ADD, List.of(sessionKey, this.keys.subscriptions(id)), uri,
				Long.toString(this.idleTimeout.toMillis()));
		if (result == null || result < 0) {
			return false;
		}
		boolean added = result == 1;
		if (added) {
			count(id, 1);
			if (forgetIfEnded(id)) {
				return false;
			}
		}
		Map<String, String> record = new LinkedHashMap<>();
		record.put(RedisChangeLog.KIND, SUBSCRIBE);
		record.put("s", id);
		record.put("u", uri);
		record.putAll(PrincipalCodec.fields(principal));
		String position = this.log.append(record);
		if (added) {
			// Where a stream opened later without Last-Event-ID starts: nothing published
			// after this subscription is lost.
			this.redis.execute(SET_ONCE, List.of(sessionKey), "p", position);
		}
		return added;
	}

	@Override
	public boolean removeSubscription(McpSession session, String uri) {
		return this.calls.call("unsubscribe", () -> doRemoveSubscription(session, uri));
	}

	private boolean doRemoveSubscription(McpSession session, String uri) {
		Long removed = this.redis.opsForSet().remove(this.keys.subscriptions(session.getId()), uri);
		if (removed == null || removed == 0) {
			return false;
		}
		count(session.getId(), -1);
		this.log.append(Map.of(RedisChangeLog.KIND, UNSUBSCRIBE, "s", session.getId(), "u", uri));
		return true;
	}

	@Override
	public Set<String> getSubscriptions(McpSession session) {
		return this.calls.call("read subscriptions", () -> doGetSubscriptions(session));
	}

	private Set<String> doGetSubscriptions(McpSession session) {
		Set<String> members = this.redis.opsForSet().members(this.keys.subscriptions(session.getId()));
		return (members != null) ? members : Set.of();
	}

}
