package io.github.mcpsubscriptions.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import com.sun.management.ThreadMXBean;
import io.github.mcpsubscriptions.notification.EncodedMessage;
import io.github.mcpsubscriptions.notification.MessageStream;
import io.github.mcpsubscriptions.test.ManualDeliveryScheduler;
import io.github.mcpsubscriptions.test.MutableClock;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.assertj.core.api.Assertions;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The non-blocking SSE stream's frames and batched writes, against a servlet output
 * stream that counts what the container is asked to do.
 */
class AsyncSseStreamTests {

	private final CountingOutputStream out = new CountingOutputStream();

	private AsyncSseStream stream;

	@BeforeEach
	void open() throws IOException {
		this.stream = open(this.out);
	}

	private static AsyncSseStream open(CountingOutputStream out) throws IOException {
		return open(out, (closed) -> {
		}, null);
	}

	private static AsyncSseStream open(CountingOutputStream out, Consumer<MessageStream> onClosed,
			java.time.@Nullable Duration retryOnClose) throws IOException {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/mcp");
		request.setAsyncSupported(true);
		HttpServletResponseWrapper response = new HttpServletResponseWrapper(new MockHttpServletResponse()) {

			@Override
			public ServletOutputStream getOutputStream() {
				return out;
			}

		};
		return AsyncSseStream.open(request, response, onClosed, (done) -> {
		}, retryOnClose, new ManualDeliveryScheduler(new MutableClock(Instant.EPOCH)), Duration.ofSeconds(1));
	}

	@Test
	void framesAreServerSentEvents() throws IOException {
		this.stream.send("s-1", "{\"a\":1}");
		this.stream.send(null, "line one\nline two");
		this.stream.send("s-2", "");
		this.stream.send("s-3", "é€😀");
		this.stream.sendComment("keep-alive");
		assertThat(this.out.text())
			.isEqualTo("id:s-1\nevent:message\ndata:{\"a\":1}\n\n" + "event:message\ndata:line one\ndata:line two\n\n"
					+ "id:s-2\ndata:\n\n" + "id:s-3\nevent:message\ndata:é€😀\n\n" + ":keep-alive\n\n");
	}

	@Test
	void framesOfMessagesInBytesAreThoseOfTheirText() throws IOException {
		this.stream.sendBatch(1 << 20, (target) -> {
			target.send("s-1", EncodedMessage.of("{\"a\":1}"));
			target.send(null, EncodedMessage.of("line one\nline two"));
			target.send("s-2", EncodedMessage.of(""));
			target.send("s-3", EncodedMessage.of("é€😀"));
			return false;
		});
		this.stream.send(null, EncodedMessage.of("{\"b\":2}"));
		assertThat(this.out.text()).isEqualTo("id:s-1\nevent:message\ndata:{\"a\":1}\n\n"
				+ "event:message\ndata:line one\ndata:line two\n\n" + "id:s-2\ndata:\n\n"
				+ "id:s-3\nevent:message\ndata:é€😀\n\n" + "event:message\ndata:{\"b\":2}\n\n");
	}

	@Test
	void anEventIdOfAPrefixAndANumberIsWrittenAsTheirText() throws IOException {
		byte[] prefix = "0a1b2c-".getBytes(StandardCharsets.US_ASCII);
		long[] numbers = { 0, 7, 10, 99, 100, 1234567890123L, Long.MAX_VALUE };
		this.stream.sendBatch(1 << 20, (target) -> {
			for (long number : numbers) {
				target.send(prefix, number, EncodedMessage.of("{\"n\":" + number + "}"));
			}
			target.send(prefix, 3, EncodedMessage.of("line one\nline two"));
			return false;
		});
		this.stream.send(prefix, 42, EncodedMessage.of("{\"b\":2}"));
		StringBuilder expected = new StringBuilder();
		for (long number : numbers) {
			expected.append("id:0a1b2c-" + number + "\nevent:message\ndata:{\"n\":" + number + "}\n\n");
		}
		expected.append("id:0a1b2c-3\nevent:message\ndata:line one\ndata:line two\n\n");
		expected.append("id:0a1b2c-42\nevent:message\ndata:{\"b\":2}\n\n");
		assertThat(this.out.text()).isEqualTo(expected.toString());
	}

	@Test
	void aBatchIsHandedOverWithOneFlush() throws IOException {
		this.stream.sendBatch(1 << 20, countdown(5));
		assertThat(this.out.flushes).isOne();
		assertThat(this.out.text()).isEqualTo(frames(5, 4, 3, 2, 1));
	}

	@Test
	void aBatchIsHandedOverWithOneWrite() throws IOException {
		// Each write costs the container a readiness check and a copy (#29).
		this.stream.sendBatch(1 << 20, (target) -> {
			target.send("s-1", "{\"a\":1}");
			target.sendComment("keep-alive");
			target.send(null, "line one\nline two");
			target.prime("s-2");
			return false;
		});
		assertThat(this.out.writes).isOne();
		assertThat(this.out.text()).isEqualTo("id:s-1\nevent:message\ndata:{\"a\":1}\n\n" + ":keep-alive\n\n"
				+ "event:message\ndata:line one\ndata:line two\n\n" + "id:s-2\ndata:\n\n");
	}

	@Test
	void whatABatchWroteBeforeItsWriterClosedTheStreamIsSent() throws IOException {
		this.stream.sendBatch(1 << 20, (target) -> {
			target.send(null, "{\"n\":1}");
			target.close();
			return false;
		});
		assertThat(this.out.text()).isEqualTo(frames(1));
		assertThat(this.stream.isOpen()).isFalse();
	}

	@Test
	void aStreamThatWroteSinceTheLastVisitGetsNoHeartbeat() throws IOException {
		// Under load every stream writes between two visits: the heartbeat then costs
		// nothing.
		this.stream.visit();
		this.stream.sendBatch(1 << 20, countdown(1));
		assertThat(this.stream.visit()).isFalse();
		assertThat(this.stream.visit()).as("one quiet visit is not enough").isFalse();
		assertThat(this.out.text()).isEqualTo(frames(1));
		assertThat(this.out.writes).isOne();
	}

	@Test
	void anIdleStreamGetsAHeartbeatEverySecondVisit() {
		assertThat(this.stream.visit()).isFalse();
		assertThat(this.out.text()).isEmpty();
		assertThat(this.stream.visit()).isTrue();
		assertThat(this.out.text()).isEqualTo(":heartbeat\n\n");
		assertThat(this.stream.visit()).isFalse();
		assertThat(this.stream.visit()).isTrue();
		assertThat(this.out.text()).as("idle still: one per interval").isEqualTo(":heartbeat\n\n:heartbeat\n\n");
	}

	@Test
	void aFailedHeartbeatEndsTheStream() throws IOException {
		AtomicInteger closed = new AtomicInteger();
		CountingOutputStream failing = new CountingOutputStream();
		AsyncSseStream stream = open(failing, (ended) -> closed.incrementAndGet(), null);
		failing.fail = true;
		stream.visit();
		assertThat(stream.visit()).isFalse();
		assertThat(stream.isOpen()).isFalse();
		assertThat(closed).hasValue(1);
	}

	@Test
	void aBatchLargerThanTheFirstBufferArrivesWhole() throws IOException {
		String big = "x".repeat(3000);
		this.stream.sendBatch(1 << 20, (target) -> {
			target.send(null, "{\"n\":1}");
			target.send(null, big);
			target.send(null, "{\"n\":2}");
			return false;
		});
		assertThat(this.out.writes).isOne();
		assertThat(this.out.text()).isEqualTo(frames(1) + "event:message\ndata:" + big + "\n\n" + frames(2));
	}

	@Test
	void withoutABatchEveryMessageIsFlushed() throws IOException {
		this.stream.send(null, "{\"n\":1}");
		this.stream.send(null, "{\"n\":2}");
		assertThat(this.out.flushes).isEqualTo(2);
		assertThat(this.out.text()).isEqualTo(frames(1, 2));
	}

	@Test
	void aBatchEndsOnceItReachesItsSize() throws IOException {
		AtomicInteger calls = new AtomicInteger();
		int frame = frames(1).getBytes(StandardCharsets.UTF_8).length;
		this.stream.sendBatch(2 * frame + 1, (target) -> {
			calls.incrementAndGet();
			target.send(null, "{\"n\":1}");
			return true;
		});
		assertThat(calls).as("two frames are under the size, the third reaches it").hasValue(3);
		assertThat(this.out.flushes).isOne();
	}

	@Test
	void aBatchTheClientCannotTakeYetWaitsAndIsFlushedOnceWhenItCan() throws IOException {
		this.out.ready = false;
		this.stream.sendBatch(1 << 20, countdown(3));
		assertThat(this.out.text()).isEmpty();
		AtomicInteger writable = new AtomicInteger();
		assertThat(this.stream.whenWritable(writable::incrementAndGet)).isFalse();
		this.out.ready = true;
		this.out.listener.onWritePossible();
		assertThat(this.out.text()).isEqualTo(frames(3, 2, 1));
		assertThat(this.out.flushes).isOne();
		assertThat(writable).hasValue(1);
	}

	@Test
	void successiveBatchesOfOneThreadAreBuiltInOneBuffer() throws IOException {
		// A buffer per stream and batch was most of what delivery allocated (#29).
		CountingOutputStream otherOut = new CountingOutputStream();
		AsyncSseStream other = open(otherOut);
		this.stream.sendBatch(1 << 20, countdown(2));
		other.sendBatch(1 << 20, countdown(1));
		this.stream.sendBatch(1 << 20, countdown(3));
		assertThat(this.out.text()).isEqualTo(frames(2, 1) + frames(3, 2, 1));
		assertThat(otherOut.text()).isEqualTo(frames(1));
		assertThat(otherOut.arrays).singleElement().isSameAs(this.out.arrays.get(0));
		assertThat(this.out.arrays).hasSize(2)
			.allSatisfy((array) -> assertThat(array).isSameAs(this.out.arrays.get(0)));
	}

	@Test
	void aBatchTheClientCannotTakeYetKeepsItsBytesWhileTheThreadBuildsOthers() throws IOException {
		CountingOutputStream otherOut = new CountingOutputStream();
		AsyncSseStream other = open(otherOut);
		this.out.ready = false;
		this.stream.sendBatch(1 << 20, countdown(2));
		other.sendBatch(1 << 20, countdown(9));
		this.stream.sendBatch(1 << 20, (target) -> {
			target.send(null, "{\"n\":7}");
			target.close();
			return false;
		});
		this.out.ready = true;
		this.out.listener.onWritePossible();
		assertThat(otherOut.text()).isEqualTo(frames(9, 8, 7, 6, 5, 4, 3, 2, 1));
		assertThat(this.out.text()).isEqualTo(frames(2, 1, 7));
	}

	@Test
	void aContainerThatStaysReadyIsAskedOnceABatch() throws IOException {
		// After the flush: the writer's check before the next batch and the batch's own
		// hand-over need not ask again (#29), and the flush asks the container itself
		// (#54).
		this.stream.sendBatch(1 << 20, countdown(1));
		int before = this.out.readyChecks;
		for (int i = 0; i < 3; i++) {
			assertThat(this.stream.whenWritable(() -> {
			})).isTrue();
			this.stream.sendBatch(1 << 20, countdown(2));
		}
		assertThat(this.stream.whenWritable(() -> {
		})).isTrue();
		assertThat(this.out.readyChecks - before).isEqualTo(3);
		assertThat(this.out.flushes).isEqualTo(4);
		assertThat(this.out.text()).isEqualTo(frames(1) + frames(2, 1) + frames(2, 1) + frames(2, 1));
	}

	@Test
	void aFlushTheContainerRefusesWaitsForItToBeReadyThenTheNextBatchFollows() throws IOException {
		// A write that left bytes the client has not taken: the container refuses the
		// flush, as the Servlet contract has it, and says it is not ready.
		this.out.leaveBytesOnWrite = true;
		this.stream.sendBatch(1 << 20, countdown(1));
		assertThat(this.out.flushes).isZero();
		assertThat(this.stream.whenWritable(() -> {
		})).isFalse();
		this.out.leaveBytesOnWrite = false;
		this.out.ready = true;
		this.out.listener.onWritePossible();
		assertThat(this.out.flushes).isEqualTo(1);
		assertThat(this.stream.whenWritable(() -> {
		})).isTrue();
		this.stream.sendBatch(1 << 20, countdown(2));
		assertThat(this.out.flushes).isEqualTo(2);
		assertThat(this.out.text()).isEqualTo(frames(1) + frames(2, 1));
	}

	@Test
	void closedByAnotherThreadInABatchTheBatchGoesOutBeforeTheClose() throws Exception {
		AtomicInteger closedCalls = new AtomicInteger();
		AsyncSseStream closing = open(this.out, (closed) -> closedCalls.incrementAndGet(), Duration.ofMillis(1500));
		CountDownLatch inBatch = new CountDownLatch(1);
		CountDownLatch closedMeanwhile = new CountDownLatch(1);
		AtomicReference<@Nullable Throwable> afterClose = new AtomicReference<>();
		Thread writer = new Thread(() -> {
			try {
				closing.sendBatch(1 << 20, (target) -> {
					target.send(null, "{\"n\":1}");
					inBatch.countDown();
					try {
						closedMeanwhile.await();
						target.send(null, "{\"n\":2}");
					}
					catch (IOException | InterruptedException ex) {
						afterClose.set(ex);
					}
					return false;
				});
			}
			catch (IOException ex) {
				afterClose.compareAndSet(null, ex);
			}
		});
		writer.start();
		assertThat(inBatch.await(10, TimeUnit.SECONDS)).isTrue();
		closing.close();
		assertThat(closing.isOpen()).isFalse();
		closedMeanwhile.countDown();
		writer.join(10_000);
		assertThat(writer.isAlive()).isFalse();
		assertThat(afterClose.get()).as("a write after the close fails").isInstanceOf(IOException.class);
		assertThat(this.out.text()).isEqualTo(frames(1) + "retry:1500\n\n");
		assertThat(closedCalls).hasValue(1);
		closing.close();
		assertThat(closedCalls).hasValue(1);
	}

	@Test
	void aStreamClosedForGoodSendsNoRetry() throws IOException {
		AsyncSseStream resumable = open(this.out, (closed) -> {
		}, Duration.ofMillis(1500));
		resumable.send("s-1", "{\"a\":1}");
		resumable.closeForGood();
		assertThat(resumable.isOpen()).isFalse();
		assertThat(this.out.text()).isEqualTo("id:s-1\nevent:message\ndata:{\"a\":1}\n\n");
		resumable.close();
		assertThat(this.out.text()).as("closed already").doesNotContain("retry:");
	}

	@Test
	void aStreamClosedForGoodInItsOwnBatchSendsTheBatchButNoRetry() throws IOException {
		AsyncSseStream resumable = open(this.out, (closed) -> {
		}, Duration.ofMillis(1500));
		resumable.sendBatch(1 << 20, (target) -> {
			target.send(null, "{\"n\":1}");
			((AsyncSseStream) target).closeForGood();
			return false;
		});
		assertThat(this.out.text()).isEqualTo("event:message\ndata:{\"n\":1}\n\n");
	}

	@Test
	void aBatchWrittenInsideAnotherStreamsBatchKeepsItsOwnFrames() throws IOException {
		CountingOutputStream otherOut = new CountingOutputStream();
		AsyncSseStream other = open(otherOut);
		this.stream.sendBatch(1 << 20, (target) -> {
			target.send(null, "{\"n\":1}");
			other.sendBatch(1 << 20, countdown(2));
			target.send(null, "{\"n\":3}");
			return false;
		});
		assertThat(this.out.text()).isEqualTo(frames(1, 3));
		assertThat(otherOut.text()).isEqualTo(frames(2, 1));
		this.stream.sendBatch(1 << 20, countdown(1));
		assertThat(this.out.text()).isEqualTo(frames(1, 3, 1));
	}

	@Test
	void aClosedStreamFailsTheBatch() {
		this.stream.close();
		AtomicInteger calls = new AtomicInteger();
		Assertions.assertThatIOException()
			.isThrownBy(() -> this.stream.sendBatch(100, (target) -> calls.incrementAndGet() > 0));
		assertThat(calls).hasValue(0);
	}

	@Test
	void aCloseWhoseClientHasNotTakenTheRestCompletesOnceItHas() throws IOException {
		Ends ends = new Ends(this.out);
		this.out.ready = false;
		ends.stream.sendBatch(1 << 20, countdown(1));
		ends.stream.close();
		assertThat(ends.stream.isOpen()).isFalse();
		assertThat(ends.closed).as("no more writes").hasValue(1);
		assertThat(ends.request.isAsyncStarted()).as("the client has bytes to take").isTrue();
		assertThat(ends.done).hasValue(0);
		this.out.ready = true;
		this.out.listener.onWritePossible();
		assertThat(ends.request.isAsyncStarted()).isFalse();
		assertThat(this.out.text()).isEqualTo(frames(1) + "retry:1500\n\n");
		assertThat(ends.closed).hasValue(1);
		assertThat(ends.done).hasValue(1);
		assertThat(ends.timer.pendingTimers()).as("the close timeout, which now finds nothing to do").isOne();
		ends.timer.advance(Duration.ofSeconds(1));
		assertThat(ends.closed).hasValue(1);
		assertThat(ends.done).hasValue(1);
	}

	@Test
	void aClientThatNeverTakesTheRestIsGivenUpAtTheCloseTimeoutAndCompletedWhenItDoes() throws IOException {
		Ends ends = new Ends(this.out);
		this.out.ready = false;
		ends.stream.sendBatch(1 << 20, countdown(1));
		ends.stream.close();
		ends.timer.advance(Duration.ofSeconds(1));
		assertThat(ends.done).as("given up: only the container's end is left").hasValue(1);
		assertThat(ends.request.isAsyncStarted()).as("the container still holds bytes").isTrue();
		this.out.ready = true;
		this.out.listener.onWritePossible();
		assertThat(ends.request.isAsyncStarted()).isFalse();
		assertThat(this.out.text()).as("what waited here was dropped").isEmpty();
		assertThat(ends.closed).hasValue(1);
		assertThat(ends.done).hasValue(1);
	}

	@Test
	void aStreamWhoseClientTookEverythingIsCompletedAtOnceWhenClosedOrGivenUp() throws IOException {
		Ends closed = new Ends(this.out);
		closed.stream.send(null, "{\"n\":1}");
		closed.stream.closeForGood();
		assertThat(closed.request.isAsyncStarted()).isFalse();
		assertThat(closed.timer.pendingTimers()).isZero();
		Ends aborted = new Ends(new CountingOutputStream());
		aborted.stream.abort();
		assertThat(aborted.request.isAsyncStarted()).isFalse();
		assertThat(aborted.stream.isClosedByServer()).isTrue();
		for (Ends ends : List.of(closed, aborted)) {
			assertThat(ends.closed).hasValue(1);
			assertThat(ends.done).hasValue(1);
		}
	}

	@Test
	void everyWayToEndTellsTheOwnersOnce() throws IOException {
		Ends ends = new Ends(this.out);
		this.out.ready = false;
		ends.stream.send(null, "{\"n\":1}");
		ends.stream.close();
		ends.stream.closeForGood();
		ends.stream.abort();
		ends.stream.abort();
		this.out.listener.onError(new IOException("Connection reset"));
		this.out.ready = true;
		this.out.listener.onWritePossible();
		assertThat(ends.stream.visit()).isFalse();
		assertThat(ends.stream.visit()).isFalse();
		Assertions.assertThatIOException().isThrownBy(() -> ends.stream.send(null, "{\"n\":2}"));
		assertThat(ends.closed).hasValue(1);
		assertThat(ends.done).hasValue(1);
		assertThat(ends.stream.isClosedByServer()).isTrue();
	}

	@Test
	void aStreamTheClientLeftIsNotClosedByTheServer() throws IOException {
		Ends ends = new Ends(this.out);
		this.out.fail = true;
		Assertions.assertThatIOException().isThrownBy(() -> ends.stream.send(null, "{\"n\":1}"));
		assertThat(ends.stream.isOpen()).isFalse();
		assertThat(ends.stream.isClosedByServer()).isFalse();
		assertThat(ends.request.isAsyncStarted()).isFalse();
		ends.stream.close();
		assertThat(ends.closed).hasValue(1);
		assertThat(ends.done).hasValue(1);
	}

	@Test
	void aBatchOfWritesAllocatesNothing() throws IOException {
		// The hot path: every notification of every subscriber is framed here (#29).
		NullOutputStream quiet = new NullOutputStream();
		AsyncSseStream stream = open(quiet);
		byte[] prefix = "0a1b2c-".getBytes(StandardCharsets.US_ASCII);
		EncodedMessage message = EncodedMessage
			.of("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\"}");
		long[] sequence = { 0 };
		MessageStream.BatchWriter writer = (target) -> {
			target.send(prefix, sequence[0]++, message);
			return sequence[0] % 10 != 0;
		};
		ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
		for (int i = 0; i < 20_000; i++) {
			stream.sendBatch(1 << 20, writer);
		}
		long before = threads.getCurrentThreadAllocatedBytes();
		for (int i = 0; i < 1_000; i++) {
			stream.sendBatch(1 << 20, writer);
		}
		long allocated = threads.getCurrentThreadAllocatedBytes() - before;
		assertThat(quiet.written).isEqualTo(21_000 * 10);
		assertThat(allocated).as("bytes allocated by 1,000 batches of 10").isLessThan(1_000);
	}

	/** Writes {@code {"n":count}} down to {@code {"n":1}}, one message a call. */
	private static MessageStream.BatchWriter countdown(int count) {
		AtomicInteger left = new AtomicInteger(count);
		return (target) -> {
			int n = left.getAndDecrement();
			if (n <= 0) {
				return false;
			}
			target.send(null, "{\"n\":" + n + "}");
			return true;
		};
	}

	private static String frames(int... numbers) {
		StringBuilder text = new StringBuilder();
		for (int n : numbers) {
			text.append("event:")
				.append(AsyncSseStream.MESSAGE_EVENT)
				.append("\ndata:{\"n\":")
				.append(n)
				.append("}\n\n");
		}
		return text.toString();
	}

	/**
	 * A stream with counts of its owners' callbacks and its request, to see it complete.
	 */
	private static final class Ends {

		final AtomicInteger closed = new AtomicInteger();

		final AtomicInteger done = new AtomicInteger();

		final MockHttpServletRequest request = new MockHttpServletRequest("GET", "/mcp");

		final ManualDeliveryScheduler timer = new ManualDeliveryScheduler(new MutableClock(Instant.EPOCH));

		final AsyncSseStream stream;

		Ends(CountingOutputStream out) throws IOException {
			this.request.setAsyncSupported(true);
			HttpServletResponseWrapper response = new HttpServletResponseWrapper(new MockHttpServletResponse()) {

				@Override
				public ServletOutputStream getOutputStream() {
					return out;
				}

			};
			this.stream = AsyncSseStream.open(this.request, response, (ended) -> this.closed.incrementAndGet(),
					(ended) -> this.done.incrementAndGet(), Duration.ofMillis(1500), this.timer, Duration.ofSeconds(1));
		}

	}

	/** Counts what it is given and keeps nothing, so that it allocates nothing. */
	private static final class NullOutputStream extends CountingOutputStream {

		int written;

		@Override
		public void write(byte[] b, int off, int len) {
			for (int i = off; i < off + len - 1; i++) {
				if (b[i] == '\n' && b[i + 1] == '\n') {
					this.written++;
				}
			}
		}

	}

	private static class CountingOutputStream extends ServletOutputStream {

		private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

		volatile boolean ready = true;

		/** Whether writes fail, as on a connection its client closed. */
		volatile boolean fail;

		/**
		 * Whether a write leaves bytes the client has not taken: the container is not
		 * ready after it, and refuses a flush until it is.
		 */
		volatile boolean leaveBytesOnWrite;

		int flushes;

		int writes;

		int readyChecks;

		/** The arrays the container was handed, in order. */
		final List<byte[]> arrays = new ArrayList<>();

		@Nullable WriteListener listener;

		@Override
		public boolean isReady() {
			this.readyChecks++;
			return this.ready;
		}

		@Override
		public void setWriteListener(WriteListener writeListener) {
			this.listener = writeListener;
		}

		@Override
		public void write(int b) {
			this.bytes.write(b);
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			if (this.fail) {
				throw new IOException("Broken pipe");
			}
			this.writes++;
			this.arrays.add(b);
			this.bytes.write(b, off, len);
			if (this.leaveBytesOnWrite) {
				this.ready = false;
			}
		}

		@Override
		public void flush() {
			if (!this.ready) {
				throw new IllegalStateException("Not ready: call isReady() first");
			}
			this.flushes++;
		}

		String text() {
			return this.bytes.toString(StandardCharsets.UTF_8);
		}

	}

}
