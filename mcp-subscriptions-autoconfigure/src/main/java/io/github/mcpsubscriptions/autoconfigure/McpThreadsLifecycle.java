package io.github.mcpsubscriptions.autoconfigure;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Stops the notification threads (dispatcher, delivery pool and timer) when the context
 * closes, after the session and listen managers have ended their streams and before the
 * web server shuts down: stopped only when their beans are destroyed, they would still
 * run when Tomcat looks for threads an application failed to stop.
 */
final class McpThreadsLifecycle implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(McpThreadsLifecycle.class);

	/**
	 * Between the MCP managers ({@link #DEFAULT_PHASE}) and the web server's graceful
	 * shutdown ({@code DEFAULT_PHASE - 1024}).
	 */
	static final int PHASE = DEFAULT_PHASE - 512;

	private final List<Object> closeables;

	private volatile boolean running = true;

	McpThreadsLifecycle(List<Object> closeables) {
		this.closeables = closeables;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
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
