package io.github.mcpsubscriptions.events;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcError;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The wire format of the Events extension, all in one room: the extension's identifier,
 * the method names, the shapes of requests and results, the error names, their
 * provisional codes and their {@code data}, and the cursor format. Follows the draft
 * SEP-3415 of 2026-10-05 (commit {@code 5eb6862} of
 * {@code modelcontextprotocol/modelcontextprotocol}); a revision of the draft changes
 * this class.
 */
final class EventsWire {

	/** The extension's identifier in {@code capabilities.extensions}. */
	static final String EXTENSION_ID = "io.modelcontextprotocol/events";

	static final String LIST = "events/list";

	static final String POLL = "events/poll";

	/**
	 * The settings advertised in {@code server/discover} where listen streams are on:
	 * event types may come and go at run time, and
	 * {@code notifications/events/list_changed} tells the listen streams that asked.
	 */
	static final Map<String, Object> SETTINGS = Map.of("listChanged", true);

	/**
	 * The settings advertised where listen streams are off: without {@code listChanged},
	 * as no {@code list_changed} could be sent.
	 */
	static final Map<String, Object> SETTINGS_WITHOUT_LIST_CHANGED = Map.of();

	/** The field of the listen request's {@code notifications} filter that asks. */
	static final String LIST_CHANGED_FILTER = "eventsListChanged";

	/** Sent on the listen streams that asked, when event types come or go. */
	static final String LIST_CHANGED = "notifications/events/list_changed";

	/** {@code NotFound}: the draft's provisional code. */
	static final int NOT_FOUND = -32023;

	/** {@code Forbidden}: the draft's provisional code. */
	static final int FORBIDDEN = -32024;

	/** {@code ResourceExhausted}: the draft's provisional code. */
	static final int RESOURCE_EXHAUSTED = -32025;

	/** {@code Unsupported}: the draft's provisional code. */
	static final int UNSUPPORTED = -32026;

	private static final String CURSOR_VERSION = "1";

	private EventsWire() {
	}

	/**
	 * The {@code data} of an error, its members in the order given (as the draft shows
	 * them).
	 */
	private static Map<String, Object> data(String name, Object value, String otherName, Object otherValue) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put(name, value);
		data.put(otherName, otherValue);
		return data;
	}

	static JsonRpcException notFoundEvent(String name) {
		return new JsonRpcException(NOT_FOUND, "NotFound", data("kind", "event", "name", name));
	}

	static JsonRpcException forbidden(String name) {
		return new JsonRpcException(FORBIDDEN, "Forbidden", Map.of("name", name));
	}

	static JsonRpcException unsupportedDelivery(String mode) {
		return new JsonRpcException(UNSUPPORTED, "Unsupported", data("feature", "deliveryMode", "value", mode));
	}

	static JsonRpcException invalidParams(String message) {
		return JsonRpcException.invalidParams("Invalid params: " + message);
	}

	static JsonRpcException invalidArguments(String name, List<String> problems) {
		return new JsonRpcException(
				JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: the arguments of " + name
						+ " do not match its inputSchema: " + String.join("; ", problems),
				Map.of("problems", problems));
	}

	/**
	 * A cursor: an opaque position in the log of one node's lifetime (its epoch).
	 *
	 * @param epoch the log's epoch
	 * @param position the position: events after it are unread
	 */
	record Cursor(String epoch, long position) {

		String encode() {
			String plain = CURSOR_VERSION + ":" + this.epoch + ":" + this.position;
			return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
		}

		/**
		 * Read a cursor a client sent back.
		 * @param text the cursor
		 * @return the cursor
		 * @throws JsonRpcException {@code InvalidParams} for one this server did not
		 * issue
		 */
		static Cursor decode(String text) {
			try {
				String[] parts = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8).split(":", -1);
				if (parts.length == 3 && parts[0].equals(CURSOR_VERSION) && !parts[1].isEmpty()) {
					long position = Long.parseLong(parts[2]);
					if (position >= 0) {
						return new Cursor(parts[1], position);
					}
				}
			}
			catch (IllegalArgumentException ex) {
				// Not Base64, or not a number: not a cursor of this server.
			}
			throw invalidParams("\"cursor\" is not a cursor this server issued");
		}

	}

	/** An event type as {@code events/list} describes it. */
	record Descriptor(String name, String description, List<String> delivery, JsonNode inputSchema,
			JsonNode payloadSchema) {
	}

	/** The result of {@code events/list}. */
	record ListResult(List<Descriptor> events, @Nullable String nextCursor) {
	}

	/**
	 * An {@code EventOccurrence} as a poll result carries it: without {@code cursor},
	 * which a poll result holds once, at its level.
	 */
	record Occurrence(String eventId, String name, String timestamp, JsonNode data) {
	}

	/** The result of {@code events/poll}. */
	record PollResult(List<Occurrence> events, String cursor, boolean truncated, boolean hasMore, long nextPollMs) {
	}

	// Push: events/stream and the messages of its stream.

	static final String STREAM = "events/stream";

	/**
	 * The {@code _meta} key that ties every message of a push stream to its
	 * {@code events/stream} request: the request's id, with its JSON type.
	 */
	static final String SUBSCRIPTION_ID_META = "io.modelcontextprotocol/subscriptionId";

	/** The first message of a push stream, and again after a gap. */
	static final String ACTIVE = "notifications/events/active";

	static final String EVENT = "notifications/events/event";

	static final String HEARTBEAT = "notifications/events/heartbeat";

	/** Ends a push subscription; the stream closes after it. */
	static final String TERMINATED = "notifications/events/terminated";

	/**
	 * The {@code _meta} of every message of a push stream.
	 * @param requestId the {@code events/stream} request's id
	 * @return the {@code _meta}
	 */
	static Map<String, Object> streamMeta(JsonNode requestId) {
		return Map.of(SUBSCRIPTION_ID_META, requestId);
	}

	/**
	 * {@code notifications/events/active}: the subscription is live from {@code cursor};
	 * {@code truncated} when events may have been skipped before it.
	 * @param cursor the position delivery resumes after
	 * @param truncated whether events may have been skipped
	 * @param meta the stream's {@code _meta}
	 * @return the notification
	 */
	static JsonRpcNotification active(String cursor, boolean truncated, Map<String, Object> meta) {
		Map<String, Object> params = new LinkedHashMap<>();
		params.put("cursor", cursor);
		params.put("truncated", truncated);
		params.put("_meta", meta);
		return new JsonRpcNotification(ACTIVE, params);
	}

	/**
	 * {@code notifications/events/event}: an {@code EventOccurrence} with the position
	 * after it.
	 * @param eventId the event's id
	 * @param name its type's name
	 * @param timestamp when it was recorded
	 * @param data what this subscription receives of it
	 * @param cursor the position after it
	 * @param meta the stream's {@code _meta}
	 * @return the notification
	 */
	static JsonRpcNotification event(String eventId, String name, String timestamp, JsonNode data, String cursor,
			Map<String, Object> meta) {
		Map<String, Object> params = new LinkedHashMap<>();
		params.put("eventId", eventId);
		params.put("name", name);
		params.put("timestamp", timestamp);
		params.put("data", data);
		params.put("cursor", cursor);
		params.put("_meta", meta);
		return new JsonRpcNotification(EVENT, params);
	}

	/**
	 * {@code notifications/events/heartbeat}: the stream is alive, and the log was read
	 * up to {@code cursor}.
	 * @param cursor the position checked up to
	 * @param meta the stream's {@code _meta}
	 * @return the notification
	 */
	static JsonRpcNotification heartbeat(String cursor, Map<String, Object> meta) {
		Map<String, Object> params = new LinkedHashMap<>();
		params.put("cursor", cursor);
		params.put("_meta", meta);
		return new JsonRpcNotification(HEARTBEAT, params);
	}

	/**
	 * {@code notifications/events/terminated}: the subscription has ended.
	 * @param error why: {@code Forbidden}, or {@code NotFound} for a type gone
	 * @param meta the stream's {@code _meta}
	 * @return the notification
	 */
	static JsonRpcNotification terminated(JsonRpcError error, Map<String, Object> meta) {
		Map<String, Object> params = new LinkedHashMap<>();
		params.put("error", error);
		params.put("_meta", meta);
		return new JsonRpcNotification(TERMINATED, params);
	}

	/**
	 * The {@code StreamEventsResult} that answers the {@code events/stream} request when
	 * the server ends the stream: nothing but {@code resultType} and the {@code _meta}.
	 * @param requestId the request's id
	 * @param meta the stream's {@code _meta}
	 * @return the response
	 */
	static JsonRpcResponse streamResult(JsonNode requestId, Map<String, Object> meta) {
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("resultType", "complete");
		result.put("_meta", meta);
		return JsonRpcResponse.success(requestId, result);
	}

	// Webhooks: events/subscribe, events/unsubscribe and the delivery profile.

	static final String SUBSCRIBE = "events/subscribe";

	static final String UNSUBSCRIBE = "events/unsubscribe";

	/** {@code CallbackEndpointError}: the draft's provisional code. */
	static final int CALLBACK_ENDPOINT_ERROR = -32027;

	/** The prefix of a Standard Webhooks symmetric secret. */
	static final String SECRET_PREFIX = "whsec_";

	/** The fewest bytes a secret decodes to. */
	static final int SECRET_MIN_BYTES = 24;

	/** The most bytes a secret decodes to. */
	static final int SECRET_MAX_BYTES = 64;

	static final String HEADER_ID = "webhook-id";

	static final String HEADER_TIMESTAMP = "webhook-timestamp";

	static final String HEADER_SIGNATURE = "webhook-signature";

	/** The one header of the profile that is MCP's own. */
	static final String HEADER_SUBSCRIPTION_ID = "X-MCP-Subscription-Id";

	/** The version prefix of an HMAC-SHA256 signature. */
	static final String SIGNATURE_VERSION = "v1,";

	private static final SecureRandom RANDOM = new SecureRandom();

	static JsonRpcException forbiddenWithoutPrincipal() {
		return new JsonRpcException(FORBIDDEN, "Forbidden",
				Map.of("reason", "webhook subscriptions need an authenticated principal"));
	}

	static JsonRpcException notFoundSubscription() {
		return new JsonRpcException(NOT_FOUND, "NotFound", Map.of("kind", "subscription"));
	}

	static JsonRpcException resourceExhausted(String limit, int max) {
		return new JsonRpcException(RESOURCE_EXHAUSTED, "ResourceExhausted", data("limit", limit, "max", max));
	}

	/**
	 * A callback that failed verification or could not be reached.
	 * @param reason one of the draft's categories, never anything the endpoint said
	 * @return the error
	 */
	static JsonRpcException callbackEndpointError(String reason) {
		return new JsonRpcException(CALLBACK_ENDPOINT_ERROR, "CallbackEndpointError", Map.of("reason", reason));
	}

	/**
	 * The {@code webhook-id} of a control envelope: {@code msg_<type>_<random>}.
	 * @param type the envelope's type
	 * @return the id
	 */
	static String envelopeId(String type) {
		byte[] random = new byte[8];
		RANDOM.nextBytes(random);
		return "msg_" + type + "_" + HexFormat.of().formatHex(random);
	}

	/**
	 * A single-use nonce for a verification challenge.
	 * @return the nonce
	 */
	static String challenge() {
		byte[] random = new byte[16];
		RANDOM.nextBytes(random);
		return "n_" + HexFormat.of().formatHex(random);
	}

	/**
	 * The body of a {@code verification} envelope.
	 * @param challenge the nonce the endpoint echoes
	 * @return the body
	 */
	static Map<String, Object> verificationEnvelope(String challenge) {
		return data("type", "verification", "challenge", challenge);
	}

	/**
	 * The body of a {@code gap} envelope: events may have been skipped, resume here.
	 * @param cursor the fresh cursor
	 * @return the body
	 */
	static Map<String, Object> gapEnvelope(String cursor) {
		return data("type", "gap", "cursor", cursor);
	}

	/**
	 * The body of a {@code terminated} envelope: the subscription no longer exists.
	 * @param code the error's code
	 * @param message the error's name
	 * @param errorData the error's {@code data}
	 * @return the body
	 */
	static Map<String, Object> terminatedEnvelope(int code, String message, Map<String, Object> errorData) {
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("code", code);
		error.put("message", message);
		error.put("data", errorData);
		return data("type", "terminated", "error", error);
	}

	/**
	 * An {@code EventOccurrence} as a webhook body carries it: with {@code cursor}, a
	 * watermark safe to persist.
	 */
	record WebhookOccurrence(String eventId, String name, String timestamp, JsonNode data, String cursor) {
	}

	/**
	 * The result of {@code events/subscribe}; {@code refreshBefore} is always present,
	 * {@code null} only for a subscription without expiry.
	 */
	record SubscribeResult(String id, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String refreshBefore,
			String cursor, boolean truncated, @Nullable DeliveryStatus deliveryStatus) {
	}

	/**
	 * How delivery to a subscription fares, on a refresh's result. {@code lastError} is
	 * one of the fixed categories or {@code null}, never what the endpoint answered.
	 */
	record DeliveryStatus(boolean active, @Nullable String lastDeliveryAt,
			@JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String lastError, @Nullable String failedSince) {
	}

}
