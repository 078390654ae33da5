package io.github.mcpsubscriptions.server;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;
import io.github.mcpsubscriptions.notification.MessageStream;
import io.github.mcpsubscriptions.resource.ResourceRegistryListener;
import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.McpSessionManager;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;

/**
 * Sends {@code notifications/resources/list_changed} to every session with an open
 * stream when the resource list changes. Sending happens on its own thread, never the
 * caller's, and a burst of changes is coalesced into one notification.
 */
public class ListChangedNotifier implements ResourceRegistryListener, DisposableBean {

	private static final Log logger = LogFactory.getLog(ListChangedNotifier.class);

	private final McpSessionManager sessionManager;

	private final String message;

	private final AtomicBoolean pending = new AtomicBoolean();

	private final ExecutorService executor = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "mcp-list-changed");
		thread.setDaemon(true);
		return thread;
	});

	public ListChangedNotifier(McpSessionManager sessionManager, JsonRpcCodec codec) {
		this.sessionManager = sessionManager;
		this.message = codec.writeAsString(new JsonRpcNotification("notifications/resources/list_changed", null));
	}

	@Override
	public void resourceListChanged() {
		// One notification for a burst: a change arriving before the send is covered by it.
		if (this.pending.compareAndSet(false, true) && !this.executor.isShutdown()) {
			this.executor.execute(this::send);
		}
	}

	private void send() {
		this.pending.set(false);
		for (McpSession session : this.sessionManager.getSessions()) {
			MessageStream stream = this.sessionManager.getStream(session.getId());
			if (stream != null) {
				try {
					stream.send(null, this.message);
				}
				catch (IOException ex) {
					logger.debug("Could not send list_changed; the client is gone", ex);
				}
			}
		}
	}

	@Override
	public void destroy() {
		this.executor.shutdownNow();
	}

}
