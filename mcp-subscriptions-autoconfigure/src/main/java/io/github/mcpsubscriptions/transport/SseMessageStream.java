package io.github.mcpsubscriptions.transport;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.github.mcpsubscriptions.notification.MessageStream;
import org.jspecify.annotations.Nullable;

import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter.SseEventBuilder;

/**
 * A {@link MessageStream} over Spring MVC's {@link SseEmitter}. The emitter serializes
 * concurrent sends; this class tracks whether the stream is still open and reports its
 * end exactly once.
 */
final class SseMessageStream implements MessageStream {

	static final String MESSAGE_EVENT = "message";

	private final SseEmitter emitter;

	private final AtomicBoolean open = new AtomicBoolean(true);

	private final AtomicInteger writesInProgress = new AtomicInteger();

	private volatile boolean closedByServer;

	private final Consumer<MessageStream> onClosed;

	SseMessageStream(SseEmitter emitter, Consumer<MessageStream> onClosed) {
		this.emitter = emitter;
		this.onClosed = onClosed;
		emitter.onCompletion(this::closed);
		emitter.onTimeout(this::close);
		emitter.onError((ex) -> closed());
	}

	@Override
	public void send(@Nullable String eventId, String data) throws IOException {
		SseEventBuilder event = SseEmitter.event();
		if (eventId != null) {
			event.id(eventId);
		}
		if (!data.isEmpty()) {
			// SSE's default type is "message", but clients such as the MCP Java SDK
			// dispatch only events that name it.
			event.name(MESSAGE_EVENT);
		}
		write(event.data(data));
	}

	@Override
	public void prime(String eventId, @Nullable Duration retry) throws IOException {
		SseEventBuilder event = SseEmitter.event().id(eventId);
		if (retry != null) {
			event.reconnectTime(retry.toMillis());
		}
		write(event.data(""));
	}

	@Override
	public void sendComment(String comment) throws IOException {
		write(SseEmitter.event().comment(comment));
	}

	private void write(SseEventBuilder event) throws IOException {
		if (!this.open.get()) {
			throw new IOException("The stream is closed");
		}
		this.writesInProgress.incrementAndGet();
		try {
			this.emitter.send(event);
		}
		catch (IOException | IllegalStateException ex) {
			// The client went away, or the response completed under us. The container
			// ends the async request itself: touching the emitter now is not allowed.
			closed();
			throw (ex instanceof IOException io) ? io : new IOException(ex.getMessage(), ex);
		}
		finally {
			this.writesInProgress.decrementAndGet();
		}
	}

	@Override
	public boolean isOpen() {
		return this.open.get();
	}

	@Override
	public void close() {
		if (this.open.compareAndSet(true, false)) {
			this.closedByServer = true;
			this.onClosed.accept(this);
			if (this.writesInProgress.get() == 0) {
				this.emitter.complete();
			}
			else {
				// A write is blocked on a client that stopped reading, and completing waits for
				// it: never make the caller (the dispatcher, a request) wait too.
				Thread completer = new Thread(this.emitter::complete, "mcp-complete-stalled");
				completer.setDaemon(true);
				completer.start();
			}
		}
	}

	/**
	 * Whether the server closed the stream ({@link #close()}) rather than the client or a
	 * failed write.
	 */
	boolean isClosedByServer() {
		return this.closedByServer;
	}

	private void closed() {
		if (this.open.compareAndSet(true, false)) {
			this.onClosed.accept(this);
		}
	}

}
