package io.github.mcpsubscriptions.events;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.thread.McpThreads;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.DisposableBean;

/**
 * Records every change the resource change feed carries as a {@code resource.updated}
 * event: this node's changes and, from a cluster's feed, every node's, database captures
 * included. In a cluster every node reads every change, and the one that appends it first
 * records it ({@link StoredEventLog#appendOnce}), on a thread of its own so that the
 * feed's reader is not held by the event log's Redis.
 */
final class ResourceUpdatedRecorder implements DisposableBean {

	private static final Log logger = LogFactory.getLog(ResourceUpdatedRecorder.class);

	private final EventLog log;

	private final JsonRpcCodec codec;

	private final @Nullable ExecutorService recorder;

	private final EventStats stats;

	ResourceUpdatedRecorder(ResourceChangeFeed feed, EventLog log, JsonRpcCodec codec, EventStats stats) {
		this.log = log;
		this.codec = codec;
		this.stats = stats;
		this.recorder = (log instanceof StoredEventLog) ? McpThreads.singleThread("mcp-events-record") : null;
		feed.subscribe(this::record);
	}

	private void record(ResourceChange change) {
		ResourceUpdated event = new ResourceUpdated(change.uri(), change.attributes());
		ExecutorService recorder = this.recorder;
		if (recorder == null) {
			append(event, change.position());
			return;
		}
		try {
			recorder.execute(() -> append(event, change.position()));
		}
		catch (RejectedExecutionException ex) {
			logger.debug("A resource change read while the application stops was not recorded as an MCP event");
		}
	}

	private void append(ResourceUpdated event, @Nullable String position) {
		try {
			JsonNode data = EventRecorder.payload(ResourceUpdated.TYPE, event, this.codec);
			if (position != null && this.log instanceof StoredEventLog stored) {
				if (stored.appendOnce(ResourceUpdated.TYPE, event, data, position) == null) {
					// Another node recorded it, and counted it.
					return;
				}
			}
			else {
				this.log.append(ResourceUpdated.TYPE, event, data);
			}
			this.stats.recorded(ResourceUpdated.TYPE.name());
		}
		catch (RuntimeException ex) {
			logger.error("The change of " + event.uri() + " could not be recorded as an MCP event", ex);
		}
	}

	@Override
	public void destroy() {
		if (this.recorder != null) {
			this.recorder.shutdownNow();
		}
	}

}
