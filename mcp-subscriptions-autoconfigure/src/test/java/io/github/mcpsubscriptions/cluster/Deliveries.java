package io.github.mcpsubscriptions.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import tools.jackson.databind.JsonNode;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one client's stream received under a fault, checked against the cluster's
 * contract: every change published inside the window arrives, or a resync says the client
 * must re-read; nothing arrives twice.
 */
final class Deliveries {

	static final String RESYNC = "io.github.mcpsubscriptions/resync";

	private final List<String> uris = new ArrayList<>();

	/**
	 * A change as one subscription saw it: a correlating client gets one per
	 * subscription.
	 */
	private final List<String> notified = new ArrayList<>();

	private final List<String> ids = new ArrayList<>();

	private int resyncs;

	/**
	 * Read a stream until it has been quiet for a while, or ended.
	 * @param stream the stream
	 * @param quiet how long without a message ends the reading
	 * @return this
	 */
	Deliveries read(SseStream stream, Duration quiet) throws InterruptedException {
		SseEvent event;
		while ((event = stream.nextMessage(quiet)) != null) {
			add(event);
		}
		return this;
	}

	/**
	 * Read a stream until a message for a URI arrived.
	 * @param stream the stream
	 * @param uri the changed URI
	 * @param timeout how long to wait in all
	 * @return this
	 */
	Deliveries readUntil(SseStream stream, String uri, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!this.uris.contains(uri) && System.nanoTime() < deadline) {
			SseEvent event = stream.nextMessage(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
			if (event != null) {
				add(event);
			}
		}
		assertThat(this.uris).as("a notification for " + uri).contains(uri);
		return this;
	}

	/**
	 * Read a stream until a message for a URI arrived, or a resync (which stands for
	 * every later change of its subscription until the client re-reads), then until it is
	 * quiet.
	 * @param stream the stream
	 * @param uri the changed URI
	 * @param timeout how long to wait for either
	 * @param quiet how long without a message ends the reading afterwards
	 * @return this
	 */
	Deliveries readUntilOrResync(SseStream stream, String uri, Duration timeout, Duration quiet)
			throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!this.uris.contains(uri) && this.resyncs == 0 && System.nanoTime() < deadline) {
			SseEvent event = stream.nextMessage(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
			if (event != null) {
				add(event);
			}
		}
		assertThat(this.uris.contains(uri) || this.resyncs > 0)
			.as("a notification for %s or a resync (received %d notifications)", uri, this.uris.size())
			.isTrue();
		return read(stream, quiet);
	}

	private void add(SseEvent event) {
		JsonNode message = json(event.data());
		if (!"notifications/resources/updated".equals(message.path("method").asString(""))) {
			return;
		}
		JsonNode params = message.get("params");
		if (params.path("_meta").path(RESYNC).asBoolean(false)) {
			this.resyncs++;
			return;
		}
		this.uris.add(params.get("uri").stringValue());
		this.notified.add(params.get("uri").stringValue() + " for " + params.path("subscribedUri").asString(""));
		if (event.id() != null) {
			this.ids.add(event.id());
		}
	}

	/**
	 * The id of the last notification received, to resume with.
	 * @return the id
	 */
	String lastId() {
		assertThat(this.ids).as("notifications with ids").isNotEmpty();
		return this.ids.get(this.ids.size() - 1);
	}

	List<String> uris() {
		return this.uris;
	}

	int resyncs() {
		return this.resyncs;
	}

	/**
	 * Every change published arrived or a resync was sent; nothing arrived twice.
	 * @param published the URIs changed, each once
	 */
	void assertNothingLostOrResynced(Collection<String> published) {
		assertNothingTwice();
		if (this.resyncs == 0) {
			assertThat(this.uris).as("without a resync, every change inside the window arrives").containsAll(published);
		}
	}

	/**
	 * Every change arrived and no resync was needed.
	 * @param published the URIs changed, each once
	 */
	void assertExactly(Collection<String> published) {
		assertNothingTwice();
		assertThat(this.resyncs).as("resyncs").isZero();
		assertThat(this.uris).containsExactlyInAnyOrderElementsOf(published);
	}

	void assertNothingTwice() {
		Set<String> seen = new HashSet<>();
		assertThat(this.notified).as("no change notified twice to one subscription").allMatch(seen::add);
		Set<String> seenIds = new HashSet<>();
		assertThat(this.ids).as("no event id twice").allMatch(seenIds::add);
	}

}
