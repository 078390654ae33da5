package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every thread the starter starts (delivery pool and timer, dispatcher, maintenance) has
 * ended when the application context has closed, and before the web server stops, so
 * Tomcat finds none of them left running.
 */
@ExtendWith(OutputCaptureExtension.class)
class ThreadsStopOnCloseTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Test
	void noStarterThreadOutlivesTheContext(CapturedOutput output) throws Exception {
		noStarterThreadOutlivesTheContext(output, false);
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void noStarterThreadOutlivesTheContextWithVirtualThreads(CapturedOutput output) throws Exception {
		noStarterThreadOutlivesTheContext(output, true);
	}

	private void noStarterThreadOutlivesTheContext(CapturedOutput output, boolean virtualThreads) throws Exception {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		ConfigurableApplicationContext context = new SpringApplication(McpTestApplication.class, Resources.class)
			.run("--server.port=0", "--spring.threads.virtual.enabled=" + virtualThreads);
		WebServerStopped webServerStopped = context.getBean(WebServerStopped.class);
		try {
			McpTestClient client = new McpTestClient(((WebServerApplicationContext) context).getWebServer().getPort());
			String session = client.initialize();
			client.call(session, "resources/subscribe", "{\"uri\":\"t://items/1\"}");
			try (SseStream stream = client.openStream(session);
					SseStream listen = client.listen("{\"resourceSubscriptions\":[\"t://items/1\"]}")) {
				assertThat(listen.nextMessage(WAIT)).as("listen acknowledged").isNotNull();
				context.publishEvent(new ResourceChangedEvent("t://items/1"));
				assertThat(stream.nextMessage(WAIT)).as("delivered on the GET stream").isNotNull();
				assertThat(listen.nextMessage(WAIT)).as("delivered on the listen stream").isNotNull();
				assertThat(names(started(before))).as("the starter's threads while running")
					.contains("mcp-dispatch", "mcp-sessions", "mcp-listen", "mcp-heartbeats");
				if (!virtualThreads) {
					// Virtual delivery threads are not listed (nor left running: a
					// virtual thread keeps no container alive).
					assertThat(names(started(before))).anyMatch((name) -> name.matches("mcp-delivery-\\d+"));
				}
			}
		}
		finally {
			context.close();
		}
		assertThat(webServerStopped.threadsLeft).as("threads left when the web server stopped")
			.isNotNull()
			.noneMatch((name) -> name.startsWith("mcp-"));
		assertThat(names(started(before))).as("threads left after close").noneMatch((name) -> name.startsWith("mcp-"));
		assertThat(output).doesNotContain("failed to stop it");
	}

	@Test
	void aContextStoppedAndStartedAgainStillDelivers() throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplication(McpTestApplication.class, Resources.class)
			.run("--server.port=0")) {
			context.stop();
			context.start();
			McpTestClient client = new McpTestClient(((WebServerApplicationContext) context).getWebServer().getPort());
			String session = client.initialize();
			client.call(session, "resources/subscribe", "{\"uri\":\"t://items/1\"}");
			try (SseStream stream = client.openStream(session)) {
				context.publishEvent(new ResourceChangedEvent("t://items/1"));
				assertThat(stream.nextMessage(WAIT)).as("delivered after the context started again").isNotNull();
			}
		}
	}

	private static Set<Thread> started(Set<Thread> before) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !before.contains(thread) && thread.isAlive())
			.collect(Collectors.toSet());
	}

	private static Set<String> names(Set<Thread> threads) {
		return threads.stream().map(Thread::getName).collect(Collectors.toSet());
	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Items items() {
			return new Items();
		}

		@Bean
		WebServerStopped webServerStopped() {
			return new WebServerStopped(Thread.getAllStackTraces().keySet());
		}

	}

	/**
	 * Notes the threads still running just after the web server has stopped, which is
	 * when Tomcat looks for threads an application failed to stop.
	 */
	static class WebServerStopped implements SmartLifecycle {

		private final Set<Thread> before;

		private volatile boolean running;

		volatile @Nullable Set<String> threadsLeft;

		WebServerStopped(Set<Thread> before) {
			this.before = before;
		}

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			this.threadsLeft = names(started(this.before));
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			// Stopped after every phase down to the web server's (which stops below the
			// graceful shutdown's phase), before beans are destroyed.
			return Integer.MIN_VALUE + 1;
		}

	}

	static class Items {

		@McpResource(uri = "t://items/{id}")
		String item(String id) {
			return "item " + id;
		}

	}

}
