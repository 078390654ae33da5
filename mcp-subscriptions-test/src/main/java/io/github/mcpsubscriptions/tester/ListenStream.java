package io.github.mcpsubscriptions.tester;

import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A 2026-era {@code subscriptions/listen} stream: the POST's own response is the stream,
 * its first message the acknowledgement.
 */
final class ListenStream {

	private static final String ACKNOWLEDGED = "notifications/subscriptions/acknowledged";

	private final McpTester tester;

	private final String id;

	private final StreamLog log;

	private final CompletableFuture<JsonNode> acknowledgement = new CompletableFuture<>();

	private final McpSubscription subscription;

	private @Nullable HttpResponse<InputStream> response;

	private ListenStream(McpTester tester, String id, List<String> uris) {
		this.tester = tester;
		this.id = id;
		this.log = new StreamLog("2026 listen stream " + id);
		this.subscription = new McpSubscription("2026 listen stream " + id, uris, this.log, tester.timeout(),
				(closing) -> cancel());
	}

	static McpSubscription open(McpTester tester, String... uris) {
		ListenStream listen = new ListenStream(tester, "mcp-tester-listen-" + tester.nextId(), Arrays.asList(uris));
		listen.start(uris);
		return listen.subscription;
	}

	private void start(String... uris) {
		ObjectNode params = McpTester.json.createObjectNode();
		ObjectNode notifications = params.putObject("notifications");
		notifications.set("resourceSubscriptions", McpTester.json.valueToTree(uris));
		HttpRequest request = this.tester.statelessRequest("subscriptions/listen", this.id, params, null).build();
		HttpResponse<InputStream> response = this.tester.send(request, HttpResponse.BodyHandlers.ofInputStream(),
				"subscriptions/listen");
		if (response.statusCode() != 200 || !McpTester.isEventStream(response.headers())) {
			String body = McpTester.readBody(response);
			// Throws the error the server answered with.
			McpTester.result("subscriptions/listen", this.id, response.statusCode(), response.headers(), body);
			throw new McpHttpException("subscriptions/listen (not a stream)", response.statusCode(), body,
					response.headers());
		}
		this.response = response;
		// Ended by the tester's close(), if the test does not end it.
		this.tester.opened(this, this.subscription);
		String thread = this.tester.threadNamePrefix() + this.id.substring("mcp-tester-".length());
		SseReader.start(response.body(), thread, this::arrived, () -> {
			this.log.ended();
			this.acknowledgement.completeExceptionally(new IllegalStateException("the stream ended"));
		});
		JsonNode acknowledged = awaitAcknowledgement();
		List<String> accepted = new ArrayList<>();
		acknowledged.path("params")
			.path("notifications")
			.path("resourceSubscriptions")
			.forEach((uri) -> accepted.add(uri.asString()));
		this.subscription.acknowledged(accepted);
	}

	private JsonNode awaitAcknowledgement() {
		try {
			return this.acknowledgement.get(this.tester.timeout().toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (ExecutionException ex) {
			closeStream();
			if (ex.getCause() instanceof McpErrorException error) {
				throw error;
			}
			throw new AssertionError("No acknowledgement of " + this.subscription.uris() + ": "
					+ ex.getCause().getMessage() + ".\n" + this.log.describe());
		}
		catch (TimeoutException ex) {
			closeStream();
			throw new AssertionError("No acknowledgement of " + this.subscription.uris() + " within "
					+ this.tester.timeout() + ".\n" + this.log.describe());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			closeStream();
			throw new IllegalStateException("Interrupted while waiting for the acknowledgement", ex);
		}
	}

	private void arrived(String data) {
		Instant now = Instant.now();
		this.log.arrived(now, data);
		JsonNode message = McpTester.parse(data);
		if (message == null) {
			return;
		}
		if (ACKNOWLEDGED.equals(message.path("method").asString(""))) {
			this.acknowledgement.complete(message);
		}
		else if (message.has("error")) {
			JsonNode error = message.get("error");
			this.acknowledgement.completeExceptionally(new McpErrorException("subscriptions/listen",
					error.path("code").asInt(), error.path("message").asString(""), error.get("data"), 200));
		}
		McpNotification notification = McpNotification.from(message, now);
		if (notification != null) {
			this.subscription.deliver(notification);
		}
	}

	private void cancel() {
		this.tester.closed(this);
		try {
			ObjectNode params = McpTester.json.createObjectNode().put("requestId", this.id);
			HttpRequest request = this.tester.statelessRequest("notifications/cancelled", null, params, null).build();
			this.tester.send(request, HttpResponse.BodyHandlers.discarding(), "notifications/cancelled");
		}
		finally {
			closeStream();
		}
	}

	private void closeStream() {
		this.tester.closed(this);
		// Best effort: the server ends the stream on cancellation anyway.
		McpTester.closeQuietly(this.response);
	}

}
