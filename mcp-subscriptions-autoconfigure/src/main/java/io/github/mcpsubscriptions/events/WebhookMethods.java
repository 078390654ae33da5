package io.github.mcpsubscriptions.events;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import io.github.mcpsubscriptions.events.CallbackAddresses.RefusedAddressException;
import io.github.mcpsubscriptions.events.EventsWire.Cursor;
import io.github.mcpsubscriptions.events.EventsWire.DeliveryStatus;
import io.github.mcpsubscriptions.events.EventsWire.SubscribeResult;
import io.github.mcpsubscriptions.events.WebhookDelivery.Activation;
import io.github.mcpsubscriptions.events.WebhookHttp.Answer;
import io.github.mcpsubscriptions.events.WebhookHttp.Failure;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.server.McpExchange;
import io.github.mcpsubscriptions.server.McpRequestDispatcher;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code events/subscribe} and {@code events/unsubscribe} (protocol 2026-07-28): webhook
 * subscriptions, keyed by {@code (principal, delivery.url, name, arguments)}, the
 * arguments compared as canonical JSON (keys sorted, values as sent). Subscribing again
 * with the same key refreshes in place: the TTL is granted again, the secret replaced, a
 * suspended delivery resumed. An endpoint is verified (a signed challenge it echoes)
 * before its first delivery, once per principal and URL.
 */
final class WebhookMethods {

	private final EventTypeRegistry types;

	private final McpEventAccessPolicy policy;

	private final JsonRpcCodec codec;

	private final WebhookSubscriptionStore store;

	private final WebhookDelivery delivery;

	private final CallbackAddresses addresses;

	private final WebhookStats stats;

	private final EventLog log;

	private final Settings settings;

	WebhookMethods(EventTypeRegistry types, McpEventAccessPolicy policy, JsonRpcCodec codec,
			WebhookSubscriptionStore store, WebhookDelivery delivery, CallbackAddresses addresses, WebhookStats stats,
			EventLog log, Settings settings) {
		this.types = types;
		this.policy = policy;
		this.codec = codec;
		this.store = store;
		this.delivery = delivery;
		this.addresses = addresses;
		this.stats = stats;
		this.log = log;
		this.settings = settings;
	}

	void register(McpRequestDispatcher dispatcher) {
		dispatcher.addStatelessMethod(EventsWire.SUBSCRIBE, this::subscribe);
		dispatcher.addStatelessMethod(EventsWire.UNSUBSCRIBE, this::unsubscribe);
	}

	SubscribeResult subscribe(McpExchange exchange, @Nullable ObjectNode params) {
		// In the order the draft's checklist gives: authentication, name, mode,
		// arguments, url and secret, authorization, quota, address, verification.
		Principal principal = exchange.getPrincipal();
		if (principal == null) {
			throw EventsWire.forbiddenWithoutPrincipal();
		}
		ObjectNode request = (params != null) ? params : this.codec.createObjectNode();
		String name = name(request);
		EventType type = this.types.get(name);
		if (type == null || !this.policy.canSee(principal, name)) {
			throw EventsWire.notFoundEvent(name);
		}
		if (!type.delivers("webhook")) {
			throw EventsWire.unsupportedDelivery("webhook");
		}
		JsonNode argumentsNode = EventMatching.argumentsNode(this.codec, request.get("arguments"));
		Object arguments = EventMatching.bind(this.codec, type, argumentsNode);
		ObjectNode deliveryNode = delivery(request);
		JsonNode mode = deliveryNode.get("mode");
		if (mode != null && !mode.isNull() && !(mode.isString() && mode.stringValue().equals("webhook"))) {
			throw (mode.isString()) ? EventsWire.unsupportedDelivery(mode.stringValue())
					: EventsWire.invalidParams("\"delivery.mode\" must be \"webhook\"");
		}
		URI url = url(deliveryNode);
		JsonNode secretNode = deliveryNode.get("secret");
		if (secretNode == null || !secretNode.isString()) {
			throw EventsWire.invalidParams("\"delivery.secret\" is required: " + EventsWire.SECRET_PREFIX
					+ " followed by the Base64 of 24 to 64 random bytes");
		}
		String secret = secretNode.stringValue();
		try {
			WebhookSecret.parse(secret);
		}
		catch (IllegalArgumentException ex) {
			throw EventsWire.invalidParams(ex.getMessage());
		}
		Cursor cursor = cursor(request.get("cursor"));
		Long maxAgeMs = nonNegative(request, "maxAgeMs");
		JsonNode ttlNode = request.get("ttlMs");
		Long ttlMs = nonNegative(request, "ttlMs");
		if (!this.policy.canSubscribe(principal, name, arguments)) {
			throw EventsWire.forbidden(name);
		}
		String owner = principal.getName();
		String id = id(owner, url.toString(), name, argumentsNode);
		Instant now = this.log.now();
		WebhookSubscription existing = this.store.get(id, now);
		if (existing == null) {
			int max = this.settings.maxSubscriptionsPerPrincipal();
			if (this.store.countOf(owner, now) >= max) {
				throw EventsWire.resourceExhausted("subscriptions", max);
			}
			// An expired one whose delivery was not yet stopped starts afresh.
			this.delivery.forget(id);
		}
		try {
			// Early: refused before anything is sent (delivery checks again, each time).
			this.addresses.resolve(url.getHost());
		}
		catch (RefusedAddressException ex) {
			throw refusedAddress();
		}
		catch (UnknownHostException ex) {
			throw EventsWire.callbackEndpointError("connection_refused");
		}
		Duration grant = grant(ttlNode, ttlMs);
		WebhookSubscription subscription = new WebhookSubscription(id, owner, url.toString(), name, argumentsNode,
				secret, previousSecret(existing, secret), previousSecretUntil(existing, secret), now.plus(grant), true);
		if (!this.store.isVerified(owner, url.toString(), now)) {
			verify(subscription);
			this.store.verified(owner, url.toString(), now.plus(this.settings.verificationTtl()));
		}
		this.store.put(subscription, principal);
		Activation activation = this.delivery.activate(subscription, principal, arguments, cursor, maxAgeMs);
		DeliveryStatus status = activation.status();
		if (existing != null && status != null && status.active() != existing.active()) {
			// How delivery fared before this refresh: the stored subscription says
			// whether
			// it was suspended, also when another node delivers it.
			status = new DeliveryStatus(existing.active(), status.lastDeliveryAt(), status.lastError(),
					status.failedSince());
		}
		return new SubscribeResult(id, subscription.refreshBefore().toString(), activation.cursor(),
				activation.truncated(), (existing != null) ? status : null);
	}

	Map<String, Object> unsubscribe(McpExchange exchange, @Nullable ObjectNode params) {
		Principal principal = exchange.getPrincipal();
		if (principal == null) {
			throw EventsWire.forbiddenWithoutPrincipal();
		}
		ObjectNode request = (params != null) ? params : this.codec.createObjectNode();
		String name = name(request);
		JsonNode argumentsNode = EventMatching.argumentsNode(this.codec, request.get("arguments"));
		URI url = url(delivery(request));
		String id = id(principal.getName(), url.toString(), name, argumentsNode);
		if (this.store.get(id, this.log.now()) == null || !this.store.remove(id)) {
			throw EventsWire.notFoundSubscription();
		}
		this.delivery.forget(id);
		return Map.of();
	}

	private void verify(WebhookSubscription subscription) {
		String challenge = EventsWire.challenge();
		byte[] body = this.codec.write(EventsWire.verificationEnvelope(challenge));
		Answer answer = this.delivery.post(subscription, EventsWire.envelopeId("verification"), body,
				this.settings.wallClock().instant());
		if (answer.failure() == Failure.REFUSED_ADDRESS) {
			throw refusedAddress();
		}
		if (answer.failure() != null) {
			this.stats.verificationFailed();
			throw EventsWire.callbackEndpointError(answer.category());
		}
		if (!answer.accepted() || !echoes(answer.body(), challenge)) {
			// Reachable but no echo: only the category, never what it answered.
			this.stats.verificationFailed();
			throw EventsWire.callbackEndpointError("challenge_failed");
		}
	}

	private boolean echoes(byte[] answer, String challenge) {
		try {
			JsonNode echo = this.codec.parse(answer).get("challenge");
			return echo != null && echo.isString() && MessageDigest.isEqual(
					echo.stringValue().getBytes(StandardCharsets.UTF_8), challenge.getBytes(StandardCharsets.UTF_8));
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static JsonRpcException refusedAddress() {
		return EventsWire.invalidParams("\"delivery.url\" is refused: its host resolves to no globally routable "
				+ "address and to none inside mcp.events.webhooks.allowed-networks");
	}

	private Duration grant(@Nullable JsonNode ttlNode, @Nullable Long ttlMs) {
		Duration max = this.settings.maxTtl();
		if (ttlNode == null) {
			return min(this.settings.defaultTtl(), max);
		}
		if (ttlMs == null) {
			// No expiry asked for: never granted by a store that a restart empties, so
			// the longest finite TTL instead (never null unless asked, and not here).
			return max;
		}
		Duration asked = Duration.ofMillis(ttlMs);
		if (asked.compareTo(this.settings.minTtl()) < 0) {
			// Clamped up, which the draft allows for impractically short suggestions.
			return min(this.settings.minTtl(), max);
		}
		return min(asked, max);
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	private static @Nullable String previousSecret(@Nullable WebhookSubscription existing, String secret) {
		if (existing == null) {
			return null;
		}
		return existing.secret().equals(secret) ? existing.previousSecret() : existing.secret();
	}

	private @Nullable Instant previousSecretUntil(@Nullable WebhookSubscription existing, String secret) {
		if (existing == null) {
			return null;
		}
		return existing.secret().equals(secret) ? existing.previousSecretUntil()
				: this.settings.wallClock().instant().plus(this.settings.secretGracePeriod());
	}

	private static String name(ObjectNode request) {
		JsonNode name = request.get("name");
		if (name == null || !name.isString()) {
			throw EventsWire.invalidParams("\"name\" is required and must be a string");
		}
		return name.stringValue();
	}

	private static ObjectNode delivery(ObjectNode request) {
		JsonNode delivery = request.get("delivery");
		if (delivery == null || !delivery.isObject()) {
			throw EventsWire.invalidParams("\"delivery\" is required: {\"mode\":\"webhook\",\"url\":…,\"secret\":…}");
		}
		return (ObjectNode) delivery;
	}

	private static URI url(ObjectNode delivery) {
		JsonNode url = delivery.get("url");
		if (url == null || !url.isString()) {
			throw EventsWire.invalidParams("\"delivery.url\" is required and must be an https URL");
		}
		URI uri;
		try {
			uri = new URI(url.stringValue());
		}
		catch (URISyntaxException ex) {
			throw EventsWire.invalidParams("\"delivery.url\" is not a URL");
		}
		if (!"https".equals(uri.getScheme())) {
			throw EventsWire.invalidParams("\"delivery.url\" must be an https URL");
		}
		if (uri.getHost() == null || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
			throw EventsWire.invalidParams(
					"\"delivery.url\" must be an https URL with a host, without user " + "information or fragment");
		}
		return uri;
	}

	private static @Nullable Cursor cursor(@Nullable JsonNode node) {
		if (node == null || node.isNull()) {
			return null;
		}
		if (!node.isString()) {
			throw EventsWire.invalidParams("\"cursor\" must be a string or null");
		}
		return Cursor.decode(node.stringValue());
	}

	private static @Nullable Long nonNegative(ObjectNode request, String field) {
		JsonNode node = request.get(field);
		if (node == null || node.isNull()) {
			return null;
		}
		if (!node.isIntegralNumber() || !node.canConvertToLong()) {
			throw EventsWire.invalidParams("\"" + field + "\" must be an integer or null");
		}
		// Negative: clamped to zero (then to the minimum TTL); TTLs have no rejection
		// path.
		return Math.max(0, node.longValue());
	}

	/**
	 * The id of a subscription: deterministic over its key, so the same across refreshes
	 * and restarts, and never accepted as input.
	 */
	static String id(String principal, String url, String name, JsonNode arguments) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			for (String part : new String[] { principal, url, name, canonical(arguments) }) {
				byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
				// Length-prefixed: no two keys share a serialization.
				digest.update(Integer.toString(bytes.length).getBytes(StandardCharsets.UTF_8));
				digest.update((byte) ':');
				digest.update(bytes);
			}
			return "sub_" + HexFormat.of().formatHex(digest.digest(), 0, 8);
		}
		catch (NoSuchAlgorithmException ex) {
			// SHA-256 is required of every JDK.
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Canonical JSON: object members sorted by name, at every depth; values as sent.
	 * @param node the JSON
	 * @return its canonical text
	 */
	static String canonical(JsonNode node) {
		if (node.isObject()) {
			Map<String, JsonNode> sorted = new TreeMap<>();
			for (Map.Entry<String, JsonNode> member : node.properties()) {
				sorted.put(member.getKey(), member.getValue());
			}
			StringBuilder json = new StringBuilder("{");
			sorted.forEach((key, value) -> {
				if (json.length() > 1) {
					json.append(',');
				}
				json.append(quote(key)).append(':').append(canonical(value));
			});
			return json.append('}').toString();
		}
		if (node.isArray()) {
			StringBuilder json = new StringBuilder("[");
			for (JsonNode element : node) {
				if (json.length() > 1) {
					json.append(',');
				}
				json.append(canonical(element));
			}
			return json.append(']').toString();
		}
		return node.toString();
	}

	private static String quote(String text) {
		StringBuilder quoted = new StringBuilder("\"");
		for (char c : text.toCharArray()) {
			if (c == '"' || c == '\\') {
				quoted.append('\\').append(c);
			}
			else if (c < 0x20) {
				quoted.append(String.format("\\u%04x", (int) c));
			}
			else {
				quoted.append(c);
			}
		}
		return quoted.append('"').toString();
	}

	/**
	 * The webhook settings the methods use.
	 *
	 * @param defaultTtl the TTL when none is suggested
	 * @param minTtl the shortest granted
	 * @param maxTtl the longest granted
	 * @param verificationTtl how long a verification holds
	 * @param secretGracePeriod how long a replaced secret signs too
	 * @param maxSubscriptionsPerPrincipal the quota
	 * @param wallClock the real time, for signatures
	 */
	record Settings(Duration defaultTtl, Duration minTtl, Duration maxTtl, Duration verificationTtl,
			Duration secretGracePeriod, int maxSubscriptionsPerPrincipal, Clock wallClock) {
	}

}
