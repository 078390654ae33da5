package io.github.mcpsubscriptions.cluster;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import io.github.mcpsubscriptions.events.McpWebhookStore;
import io.github.mcpsubscriptions.session.StoreUnavailableException;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The cluster's webhook subscriptions in Redis, every key in one slot: each subscription
 * a hash (its record, its principal as {@link PrincipalCodec} carries one, its delivery
 * state) that expires with the subscription, indexed by expiry time in a sorted set and
 * in one per principal (the quota); a verification a key that expires with it; and the
 * lease of the node that delivers a subscription a key set only if absent
 * ({@code SET NX PX}), renewed and released only by its holder (compare, then
 * {@code PEXPIRE} or {@code DEL}). Every call answers {@link StoreUnavailableException}
 * while Redis cannot be reached, and works again as soon as it can.
 * <p>
 * The records hold the clients' webhook secrets, which delivery signs with: Redis must be
 * trusted (its ACL and TLS), as for the authentications the cluster carries.
 *
 * @since 0.1.0
 */
public class RedisWebhookStore implements McpWebhookStore {

	/**
	 * KEYS subscription, index, principal index; ARGV data, principal name, expiry (ms,
	 * or 'inf'), 1 to replace the principal, then its fields and values.
	 */
	private static final RedisScript<Long> PUT = RedisScript.of("""
			redis.call('HSET', KEYS[1], 'd', ARGV[1], 'pn', ARGV[2], 'pk', KEYS[3])
			if ARGV[4] == '1' then
				redis.call('HDEL', KEYS[1], 'pa')
				for i = 5, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
			end
			if ARGV[3] == 'inf' then
				redis.call('PERSIST', KEYS[1])
				redis.call('ZADD', KEYS[2], '+inf', KEYS[1])
				redis.call('ZADD', KEYS[3], '+inf', KEYS[1])
			else
				redis.call('PEXPIREAT', KEYS[1], ARGV[3])
				redis.call('ZADD', KEYS[2], ARGV[3], KEYS[1])
				redis.call('ZADD', KEYS[3], ARGV[3], KEYS[1])
			end
			return 1""", Long.class);

	/**
	 * KEYS subscription, index, lease: removes the subscription from its principal's
	 * index too, whose key the hash holds.
	 */
	private static final RedisScript<Long> REMOVE = RedisScript.of("""
			local index = redis.call('HGET', KEYS[1], 'pk')
			if index then redis.call('ZREM', index, KEYS[1]) end
			redis.call('ZREM', KEYS[2], KEYS[1])
			redis.call('DEL', KEYS[3])
			return redis.call('DEL', KEYS[1])""", Long.class);

	/**
	 * KEYS index; ARGV now (ms), and for orphans only the prefixes of subscription and
	 * lease keys: the live subscriptions, key, data, state and principal fields per
	 * entry, the name first.
	 */
	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> ALL = RedisScript.of("""
			local result = {}
			for _, key in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')) do
				local fields = redis.call('HMGET', key, 'd', 's', 'pn', 'pa')
				local leased = ARGV[2] and redis.call('EXISTS', ARGV[3] .. string.sub(key, #ARGV[2] + 1)) == 1
				if fields[1] and not leased then
					table.insert(result, key)
					table.insert(result, fields[1])
					table.insert(result, fields[2] or '')
					table.insert(result, fields[3] or '')
					table.insert(result, fields[4] or '')
				end
			end
			return result""", List.class);

	/** KEYS index; ARGV now (ms): removes and returns the keys that expired. */
	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> EXPIRED = RedisScript.of("""
			local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
			if #expired > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1]) end
			return expired""", List.class);

	/** KEYS principal index; ARGV now (ms): prunes what expired, then counts. */
	private static final RedisScript<Long> COUNT = RedisScript.of("""
			redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
			return redis.call('ZCARD', KEYS[1])""", Long.class);

	/** KEYS verification; ARGV until (ms). */
	private static final RedisScript<Long> VERIFIED = RedisScript.of("""
			redis.call('SET', KEYS[1], ARGV[1])
			redis.call('PEXPIREAT', KEYS[1], ARGV[1])
			return 1""", Long.class);

	/**
	 * KEYS subscription, lease; ARGV state, holder: only while the subscription exists,
	 * so that a late write never brings back one that was removed, without an expiry; and
	 * never while another node holds the lease, so that a node that lost it (paused past
	 * it) cannot take the cursor back behind what its successor delivered.
	 */
	private static final RedisScript<Long> DELIVERED = RedisScript.of("""
			if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
			local holder = redis.call('GET', KEYS[2])
			if holder and holder ~= ARGV[2] then return 0 end
			redis.call('HSET', KEYS[1], 's', ARGV[1])
			return 1""", Long.class);

	/** KEYS lease; ARGV holder, duration (ms): renews the lease only if it is ours. */
	private static final RedisScript<Long> RENEW = RedisScript.of("""
			if redis.call('GET', KEYS[1]) == ARGV[1] then
				return redis.call('PEXPIRE', KEYS[1], ARGV[2])
			end
			return 0""", Long.class);

	/** KEYS lease; ARGV holder: deletes the lease only if it is ours. */
	private static final RedisScript<Long> RELEASE = RedisScript.of("""
			if redis.call('GET', KEYS[1]) == ARGV[1] then
				return redis.call('DEL', KEYS[1])
			end
			return 0""", Long.class);

	private final StringRedisTemplate redis;

	private final ClusterKeys keys;

	private final ClusterStats stats;

	private final RedisCalls calls;

	/** This node's lifetime: a restarted node holds none of the leases of before. */
	private final String holder;

	/**
	 * Create the store.
	 * @param redis the Redis operations
	 * @param keys the cluster's key names
	 * @param nodeName this node's name, which its leases carry
	 * @param stats counts Redis failures
	 */
	public RedisWebhookStore(StringRedisTemplate redis, ClusterKeys keys, String nodeName, ClusterStats stats) {
		this.redis = redis;
		this.keys = keys;
		this.stats = stats;
		this.calls = new RedisCalls(stats);
		this.holder = nodeName + ":" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
	}

	@Override
	public @Nullable Stored get(String id) {
		return this.calls.call("read a webhook subscription", () -> {
			List<Object> fields = this.redis.opsForHash()
				.multiGet(this.keys.webhook(id), List.of("d", "s", "pn", "pa"));
			if (fields.get(0) == null) {
				return null;
			}
			return stored(id, String.valueOf(fields.get(0)), fields.get(1), fields.get(2), fields.get(3));
		});
	}

	private @Nullable Stored stored(String id, String data, @Nullable Object state, @Nullable Object name,
			@Nullable Object authentication) {
		Map<Object, Object> principal = new LinkedHashMap<>();
		if (name != null && !String.valueOf(name).isEmpty()) {
			principal.put("pn", name);
			if (authentication != null && !String.valueOf(authentication).isEmpty()) {
				principal.put("pa", authentication);
			}
		}
		String delivered = (state != null && !String.valueOf(state).isEmpty()) ? String.valueOf(state) : null;
		return new Stored(id, data, PrincipalCodec.principal(principal, this.stats), delivered);
	}

	@Override
	public void put(String id, String principalName, @Nullable Principal principal, String data,
			@Nullable Instant expiresAt) {
		List<String> arguments = new ArrayList<>(
				List.of(data, principalName, (expiresAt != null) ? Long.toString(expiresAt.toEpochMilli()) : "inf",
						(principal != null) ? "1" : "0"));
		if (principal != null) {
			PrincipalCodec.fields(principal).forEach((field, value) -> {
				if (!field.equals("pn")) {
					arguments.add(field);
					arguments.add(value);
				}
			});
		}
		this.calls.run("store a webhook subscription", () -> this.redis.execute(PUT,
				List.of(this.keys.webhook(id), this.keys.webhooks(), this.keys.principalWebhooks(principalName)),
				arguments.toArray()));
	}

	@Override
	public boolean remove(String id) {
		Long removed = this.calls.call("remove a webhook subscription", () -> this.redis.execute(REMOVE,
				List.of(this.keys.webhook(id), this.keys.webhooks(), this.keys.webhookLease(id))));
		return removed != null && removed > 0;
	}

	@Override
	public List<Stored> all(Instant now) {
		return read(this.calls.call("read the webhook subscriptions",
				() -> this.redis.execute(ALL, List.of(this.keys.webhooks()), Long.toString(now.toEpochMilli()))));
	}

	@Override
	public List<Stored> orphans(Instant now) {
		return read(this.calls.call("read the webhook subscriptions no node delivers",
				() -> this.redis.execute(ALL, List.of(this.keys.webhooks()), Long.toString(now.toEpochMilli()),
						this.keys.webhook(""), this.keys.webhookLease(""))));
	}

	private List<Stored> read(@Nullable List<?> result) {
		List<Stored> all = new ArrayList<>();
		if (result == null) {
			return all;
		}
		String prefix = this.keys.webhook("");
		for (int i = 0; i + 4 < result.size(); i += 5) {
			String id = String.valueOf(result.get(i)).substring(prefix.length());
			all.add(stored(id, String.valueOf(result.get(i + 1)), result.get(i + 2), result.get(i + 3),
					result.get(i + 4)));
		}
		return all;
	}

	@Override
	public List<String> removeExpired(Instant now) {
		List<?> result = this.calls.call("forget expired webhook subscriptions",
				() -> this.redis.execute(EXPIRED, List.of(this.keys.webhooks()), Long.toString(now.toEpochMilli())));
		List<String> ids = new ArrayList<>();
		if (result != null) {
			String prefix = this.keys.webhook("");
			result.forEach((key) -> ids.add(String.valueOf(key).substring(prefix.length())));
		}
		return ids;
	}

	@Override
	public int countOf(String principalName, Instant now) {
		Long count = this.calls.call("count a principal's webhook subscriptions", () -> this.redis.execute(COUNT,
				List.of(this.keys.principalWebhooks(principalName)), Long.toString(now.toEpochMilli())));
		return (count != null) ? count.intValue() : 0;
	}

	@Override
	public boolean isVerified(String principalName, String url, Instant now) {
		String until = this.calls.call("read a webhook verification",
				() -> this.redis.opsForValue().get(this.keys.webhookVerification(principalName, url)));
		return until != null && now.toEpochMilli() < Long.parseLong(until);
	}

	@Override
	public void verified(String principalName, String url, Instant until) {
		this.calls.run("record a webhook verification", () -> this.redis.execute(VERIFIED,
				List.of(this.keys.webhookVerification(principalName, url)), Long.toString(until.toEpochMilli())));
	}

	@Override
	public void delivered(String id, String state) {
		this.calls.run("record a webhook delivery", () -> this.redis.execute(DELIVERED,
				List.of(this.keys.webhook(id), this.keys.webhookLease(id)), state, this.holder));
	}

	@Override
	public boolean lease(String id, Duration duration) {
		String key = this.keys.webhookLease(id);
		return this.calls.call("take a webhook lease", () -> {
			if (Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(key, this.holder, duration))) {
				return true;
			}
			Long renewed = this.redis.execute(RENEW, List.of(key), this.holder, Long.toString(duration.toMillis()));
			return renewed != null && renewed == 1;
		});
	}

	@Override
	public void release(String id) {
		this.calls.run("release a webhook lease",
				() -> this.redis.execute(RELEASE, List.of(this.keys.webhookLease(id)), this.holder));
	}

}
