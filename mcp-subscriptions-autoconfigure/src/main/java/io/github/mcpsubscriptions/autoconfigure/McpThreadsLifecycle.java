package io.github.mcpsubscriptions.autoconfigure;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Stops the notification threads (dispatcher, delivery pool and timer) when the context
 * closes, after the session and listen managers have ended their streams and before the
 * web server shuts down: stopped only when their beans are destroyed, they would still
 * run when Tomcat looks for threads an application failed to stop. A context that is only
 * stopped (paused, as the test framework does with cached contexts) keeps them: they
 * cannot be started again, and the context may be.
 */
final class McpThreadsLifecycle implements SmartLifecycle, ApplicationListener<ContextClosedEvent> {

	private static final Log logger = LogFactory.getLog(McpThreadsLifecycle.class);

	/**
	 * Between the MCP managers ({@link #DEFAULT_PHASE}) and the web server's graceful
	 * shutdown ({@code DEFAULT_PHASE - 1024}).
	 */
	static final int PHASE = DEFAULT_PHASE - 512;

	private final List<Object> closeables;

	private volatile boolean running = true;

	/**
	 * Set when the context closes, which it announces before it stops its lifecycle
	 * beans.
	 */
	private volatile boolean closing;

	McpThreadsLifecycle(List<Object> closeables) {
		this.closeables = closeables;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		this.closing = true;
	}

	@Override
	public void stop() {
		this.running = false;
		if (!this.closing) {
			return;
		}
		for (Object closeable : this.closeables) {
			if (closeable instanceof AutoCloseable resource) {
				try {
					resource.close();
				}
				catch (Exception ex) {
					logger.warn("Could not stop " + closeable, ex);
				}
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
