package io.github.mcpsubscriptions.transport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcResponse;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The response to one POST, turned into an SSE stream only when the request's handler
 * sends a notification before its result (a tool's progress or log messages): then the
 * notifications and, last, the response are written as SSE events on the request's own
 * thread. A request whose handler sends nothing is answered with plain JSON as before. A
 * client that does not accept {@code text/event-stream} gets no notifications.
 */
final class PostResponseStream implements Consumer<JsonRpcNotification> {

	private final HttpServletResponse response;

	private final JsonRpcCodec codec;

	private final boolean acceptsStream;

	private boolean started;

	private boolean broken;

	PostResponseStream(HttpServletResponse response, JsonRpcCodec codec, boolean acceptsStream) {
		this.response = response;
		this.codec = codec;
		this.acceptsStream = acceptsStream;
	}

	@Override
	public synchronized void accept(JsonRpcNotification notification) {
		if (!this.acceptsStream || this.broken) {
			return;
		}
		if (!this.started) {
			this.response.setStatus(HttpServletResponse.SC_OK);
			this.response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
			this.response.setCharacterEncoding(StandardCharsets.UTF_8.name());
			this.response.setHeader(HttpHeaders.CACHE_CONTROL, "no-cache, no-transform");
			this.response.setHeader("X-Accel-Buffering", "no");
			this.started = true;
		}
		write(this.codec.write(notification));
	}

	synchronized boolean isStarted() {
		return this.started;
	}

	/**
	 * Write the response as the stream's last event.
	 * @param answer the response
	 */
	synchronized void finish(JsonRpcResponse answer) {
		if (!this.broken) {
			write(this.codec.write(answer));
		}
	}

	private void write(byte[] json) {
		try {
			OutputStream out = this.response.getOutputStream();
			out.write("event: message\ndata: ".getBytes(StandardCharsets.US_ASCII));
			out.write(json);
			out.write("\n\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
		}
		catch (IOException ex) {
			// The client went away: the rest is dropped, the handler runs to its end.
			this.broken = true;
		}
	}

}
