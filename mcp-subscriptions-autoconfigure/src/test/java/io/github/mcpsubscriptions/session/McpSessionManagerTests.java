package io.github.mcpsubscriptions.session;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.notification.CorrelationMode;
import io.github.mcpsubscriptions.notification.InMemoryResourceChangeFeed;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.test.ManualDeliveryScheduler;
import io.github.mcpsubscriptions.test.MutableClock;
import io.github.mcpsubscriptions.test.RecordingStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

@ExtendWith(OutputCaptureExtension.class)
class McpSessionManagerTests {

	private static final Duration IDLE = Duration.ofMinutes(5);

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	private final List<String> ended = new ArrayList<>();

	private final InMemorySessionStore store = new InMemorySessionStore();

	private final NotificationEngine dispatcher = NotificationEngine
		.builder(new InMemoryResourceChangeFeed(), ResourceAccessPolicy.PERMIT_ALL, new JsonRpcCodec(),
				new ManualDeliveryScheduler(this.clock))
		.correlation(CorrelationMode.ALWAYS)
		.clock(this.clock)
		.outboxCapacity(10)
		.build();

	private final McpSessionManager manager = new McpSessionManager(this.store, new SecureRandomSessionIdGenerator(),
			this.clock, settings(IDLE, 3), List.of((session, reason) -> this.ended.add(session.getId() + ":" + reason)),
			this.dispatcher);

	private final ObjectNode empty = JsonMapper.builder().build().createObjectNode();

	@Test
	void createsAndFindsSession() {
		McpSession session = create(null);
		assertThat(this.manager.find(session.getId(), null)).isSameAs(session);
		assertThat(session.getProtocolVersion()).isEqualTo("2025-11-25");
		assertThat(this.manager.getSessionCount()).isOne();
	}

	@Test
	void refusesSessionsPastLimit() {
		create(null);
		create(null);
		create(null);
		assertThatExceptionOfType(SessionLimitExceededException.class).isThrownBy(() -> create(null))
			.withMessageContaining("mcp.sessions.max=3");
		assertThat(this.manager.getSessionCount()).isEqualTo(3);
	}

	@Test
	void endingFreesRoomUnderLimit() {
		McpSession first = create(null);
		create(null);
		create(null);
		this.manager.end(first.getId(), SessionEndReason.DELETED);
		assertThat(create(null)).isNotNull();
	}

	@Test
	void endingSessionRemovesItsSubscriptions() {
		McpSession session = create(null);
		this.dispatcher.subscribe(this.manager.getSubscriber(session), "a://x");
		assertThat(this.dispatcher.getIndex().size()).isOne();
		this.manager.end(session.getId(), SessionEndReason.EXPIRED);
		assertThat(this.dispatcher.getIndex().size()).isZero();
		assertThat(this.dispatcher.getSubscribers()).isEmpty();
	}

	@Test
	void sessionOfAnotherPrincipalIsNotFound() {
		McpSession session = create("alice");
		assertThat(this.manager.find(session.getId(), "mallory")).isNull();
		assertThat(this.manager.find(session.getId(), null)).isNull();
		assertThat(this.manager.find(session.getId(), "alice")).isSameAs(session);
	}

	@Test
	void endClosesStreamAndTellsListeners() {
		McpSession session = create(null);
		RecordingStream stream = new RecordingStream();
		this.manager.attachStream(session, stream);
		assertThat(this.manager.end(session.getId(), SessionEndReason.DELETED)).isTrue();
		assertThat(stream.isOpen()).isFalse();
		assertThat(this.manager.getStream(session.getId())).isNull();
		assertThat(this.manager.find(session.getId(), null)).isNull();
		assertThat(this.ended).containsExactly(session.getId() + ":DELETED");
		assertThat(this.manager.end(session.getId(), SessionEndReason.DELETED)).isFalse();
		assertThat(this.ended).hasSize(1);
	}

	@Test
	void newStreamReplacesOld() {
		McpSession session = create(null);
		RecordingStream first = new RecordingStream();
		RecordingStream second = new RecordingStream();
		this.manager.attachStream(session, first);
		this.manager.attachStream(session, second);
		assertThat(first.isOpen()).isFalse();
		assertThat(this.manager.getStream(session.getId())).isSameAs(second);
		// The replaced stream reporting its close must not detach the new one.
		this.manager.streamClosed(session.getId(), first);
		assertThat(this.manager.getStream(session.getId())).isSameAs(second);
	}

	@Test
	void streamAttachedToEndedSessionIsClosed() {
		McpSession session = create(null);
		this.manager.end(session.getId(), SessionEndReason.DELETED);
		RecordingStream stream = new RecordingStream();
		this.manager.attachStream(session, stream);
		assertThat(stream.isOpen()).isFalse();
		assertThat(this.manager.getOpenStreamCount()).isZero();
	}

	@Test
	void expiresOnlyIdleSessions() {
		McpSession idle = create(null);
		McpSession used = create(null);
		McpSession streaming = create(null);
		this.manager.attachStream(streaming, new RecordingStream());
		this.clock.advance(IDLE.minusSeconds(1));
		this.manager.find(used.getId(), null);
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.manager.expireIdleSessions()).isOne();
		assertThat(this.ended).containsExactly(idle.getId() + ":EXPIRED");
		assertThat(this.manager.find(used.getId(), null)).isNotNull();
		assertThat(this.manager.find(streaming.getId(), null)).isNotNull();
	}

	@Test
	void idleTimeCountsFromStreamClose() {
		McpSession session = create(null);
		RecordingStream stream = new RecordingStream();
		this.manager.attachStream(session, stream);
		this.clock.advance(IDLE.multipliedBy(3));
		this.manager.streamClosed(session.getId(), stream);
		this.clock.advance(IDLE.minusSeconds(1));
		assertThat(this.manager.expireIdleSessions()).isZero();
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.manager.expireIdleSessions()).isOne();
	}

	@Test
	void aStreamThatClosesWhileTheStoreIsUnreachableIsReleasedWithAWarning(CapturedOutput output) {
		FailingStore store = new FailingStore();
		McpSessionManager manager = new McpSessionManager(store, new SecureRandomSessionIdGenerator(), this.clock,
				settings(IDLE, 3), List.of(), this.dispatcher);
		McpSession session = manager.create("2025-11-25", this.empty, this.empty, null);
		RecordingStream stream = new RecordingStream();
		manager.attachStream(session, stream);
		store.down = true;
		// Called by whoever finds the stream closed: a delivery thread, the container's
		// listener.
		manager.streamClosed(session.getId(), stream);
		assertThat(manager.getStream(session.getId())).isNull();
		assertThat(manager.getOpenStreamCount()).isZero();
		assertThat(output).contains("WARN")
			.contains("Redis is down")
			.doesNotContain("StoreUnavailableException")
			.doesNotContain("ERROR");
		store.down = false;
		assertThat(manager.find(session.getId(), null)).as("the session lives on").isNotNull();
	}

	@Test
	void stopClosesStreamsButKeepsSessions() {
		McpSession session = create(null);
		RecordingStream stream = new RecordingStream();
		this.manager.start();
		this.manager.attachStream(session, stream);
		this.manager.stop();
		assertThat(this.manager.isRunning()).isFalse();
		assertThat(stream.isOpen()).isFalse();
		assertThat(this.manager.getOpenStreamCount()).isZero();
		assertThat(this.manager.getSessionCount()).isOne();
	}

	@Test
	void rejectsNonsensicalSettings() {
		assertThatIllegalArgumentException().isThrownBy(() -> settings(Duration.ZERO, 1))
			.withMessageContaining("idle timeout");
		assertThatIllegalArgumentException().isThrownBy(() -> settings(IDLE, 0)).withMessageContaining("session limit");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new McpSessionManager.Settings(IDLE, 1, 0, Duration.ofSeconds(1), Duration.ofSeconds(1)))
			.withMessageContaining("replay log");
	}

	@Test
	void generatedIdsAreLongVisibleAsciiAndDistinct() {
		SessionIdGenerator generator = new SecureRandomSessionIdGenerator();
		String first = generator.generateId();
		assertThat(first).hasSize(43).matches("[A-Za-z0-9_-]+");
		assertThat(generator.generateId()).isNotEqualTo(first);
	}

	/** A store whose backing service can be down. */
	static class FailingStore extends InMemorySessionStore {

		volatile boolean down;

		@Override
		public boolean replace(McpSession session) {
			if (this.down) {
				throw new StoreUnavailableException("Redis is down (save a session)", new IllegalStateException());
			}
			return super.replace(session);
		}

		@Override
		public @Nullable McpSession find(String id) {
			if (this.down) {
				throw new StoreUnavailableException("Redis is down (find a session)", new IllegalStateException());
			}
			return super.find(id);
		}

	}

	private static McpSessionManager.Settings settings(Duration idle, int max) {
		return new McpSessionManager.Settings(idle, max, 4, Duration.ofSeconds(10), Duration.ofSeconds(3));
	}

	private McpSession create(String principal) {
		return this.manager.create("2025-11-25", this.empty, this.empty, (principal != null) ? () -> principal : null);
	}

}
