package io.github.mcpsubscriptions.test;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsubscriptions.notification.MessageStream;
import org.jspecify.annotations.Nullable;

/**
 * A {@link MessageStream} that records what is written; it can be told to fail like a
 * client that went away.
 */
public final class RecordingStream implements MessageStream {

	private final List<String> written = new CopyOnWriteArrayList<>();

	private volatile boolean open = true;

	private volatile boolean failing;

	private volatile Runnable onClose = () -> {
	};

	private volatile boolean holding;

	private final List<Runnable> whenWritable = new CopyOnWriteArrayList<>();

	private final List<Integer> batches = new CopyOnWriteArrayList<>();

	private volatile int failAfter = -1;

	/**
	 * Act like a non-blocking stream whose client has not taken what was written: not
	 * writable until {@link #taken()}.
	 */
	public void holdWrites() {
		this.holding = true;
	}

	/**
	 * The client has taken everything: writable again, and the waiting writer is called.
	 */
	public void taken() {
		this.holding = false;
		List<Runnable> callbacks = List.copyOf(this.whenWritable);
		this.whenWritable.clear();
		callbacks.forEach(Runnable::run);
	}

	@Override
	public boolean whenWritable(Runnable callback) {
		if (!this.holding) {
			return true;
		}
		this.whenWritable.add(callback);
		return false;
	}

	/**
	 * Run something when the stream closes, as the real stream tells its owner.
	 * @param onClose what to run
	 */
	public void onClose(Runnable onClose) {
		this.onClose = onClose;
	}

	public void failWrites() {
		this.failing = true;
	}

	/**
	 * Fail like a client that goes away after taking a number of further writes.
	 * @param writes how many writes still succeed
	 */
	public void failAfter(int writes) {
		this.failAfter = writes;
	}

	/**
	 * How many messages each {@link #sendBatch batch} held, in order.
	 * @return the sizes
	 */
	public List<Integer> batches() {
		return this.batches;
	}

	@Override
	public void sendBatch(int maxBytes, BatchWriter writer) throws IOException {
		if (!this.open) {
			throw new IOException("gone");
		}
		int before = this.written.size();
		try {
			while (writer.writeNext(this)) {
				int bytes = this.written.subList(before, this.written.size()).stream().mapToInt(String::length).sum();
				if (bytes >= maxBytes) {
					break;
				}
			}
		}
		finally {
			this.batches.add(this.written.size() - before);
		}
	}

	public List<String> written() {
		return this.written;
	}

	@Override
	public void send(@Nullable String eventId, String data) throws IOException {
		write("id=" + eventId + " data=" + data);
	}

	@Override
	public void prime(String eventId) throws IOException {
		write("prime id=" + eventId);
	}

	@Override
	public void sendComment(String comment) throws IOException {
		write(":" + comment);
	}

	private void write(String line) throws IOException {
		if (this.failAfter == 0) {
			this.failing = true;
		}
		if (this.failAfter > 0) {
			this.failAfter--;
		}
		if (!this.open || this.failing) {
			close();
			throw new IOException("gone");
		}
		this.written.add(line);
	}

	@Override
	public boolean isOpen() {
		return this.open;
	}

	@Override
	public void close() {
		if (this.open) {
			this.open = false;
			this.onClose.run();
		}
	}

}
