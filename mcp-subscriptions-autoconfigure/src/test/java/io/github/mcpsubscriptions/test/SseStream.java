package io.github.mcpsubscriptions.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * A live SSE stream read on its own thread, the way a real client reads it: events are
 * parsed as they arrive and queued.
 */
public final class SseStream implements AutoCloseable {

	private final HttpResponse<InputStream> response;

	private final BlockingQueue<SseEvent> events = new LinkedBlockingQueue<>();

	private final CountDownLatch ended = new CountDownLatch(1);

	public SseStream(HttpResponse<InputStream> response) {
		this.response = response;
		Thread reader = new Thread(this::read, "sse-test-reader");
		reader.setDaemon(true);
		reader.start();
	}

	public HttpResponse<InputStream> response() {
		return this.response;
	}

	private void read() {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(this.response.body(), StandardCharsets.UTF_8))) {
			String id = null;
			String event = null;
			StringBuilder data = null;
			String retry = null;
			String comment = null;
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.isEmpty()) {
					if (id != null || event != null || data != null || retry != null || comment != null) {
						this.events
							.add(new SseEvent(id, event, (data != null) ? data.toString() : null, retry, comment));
					}
					id = null;
					event = null;
					data = null;
					retry = null;
					comment = null;
					continue;
				}
				if (line.startsWith(":")) {
					comment = line.substring(1).strip();
					continue;
				}
				int colon = line.indexOf(':');
				String field = (colon >= 0) ? line.substring(0, colon) : line;
				String value = (colon >= 0) ? line.substring(colon + 1) : "";
				if (value.startsWith(" ")) {
					value = value.substring(1);
				}
				switch (field) {
					case "id" -> id = value;
					case "event" -> event = value;
					case "retry" -> retry = value;
					case "data" -> data = (data != null) ? data.append('\n').append(value) : new StringBuilder(value);
					default -> {
					}
				}
			}
		}
		catch (IOException ex) {
			// The stream was closed by either side: that is its end.
		}
		finally {
			this.ended.countDown();
		}
	}

	/**
	 * The next event, comments included.
	 * @param timeout how long to wait
	 * @return the event, or {@code null} if none came in time
	 * @throws InterruptedException if interrupted
	 */
	public @Nullable SseEvent next(Duration timeout) throws InterruptedException {
		return this.events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	/**
	 * The next message, skipping comments and priming events (empty data), as clients do.
	 * @param timeout how long to wait in all
	 * @return the event, or {@code null} if none came in time
	 * @throws InterruptedException if interrupted
	 */
	public @Nullable SseEvent nextMessage(Duration timeout) throws InterruptedException {
		return next(timeout, (event) -> event.data() != null && !event.data().isEmpty());
	}

	/**
	 * The next event that passes a test, skipping the others.
	 * @param timeout how long to wait in all
	 * @param test the test
	 * @return the event, or {@code null} if none came in time
	 * @throws InterruptedException if interrupted
	 */
	public @Nullable SseEvent next(Duration timeout, Predicate<SseEvent> test) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		long left;
		while ((left = deadline - System.nanoTime()) > 0) {
			SseEvent event = this.events.poll(left, TimeUnit.NANOSECONDS);
			if (event != null && test.test(event)) {
				return event;
			}
		}
		return null;
	}

	/**
	 * Wait until the server ends the stream.
	 * @param timeout how long to wait
	 * @return whether it ended in time
	 * @throws InterruptedException if interrupted
	 */
	public boolean awaitEnd(Duration timeout) throws InterruptedException {
		return this.ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	@Override
	public void close() {
		try {
			this.response.body().close();
		}
		catch (IOException ex) {
			// Closing is best effort.
		}
	}

}
