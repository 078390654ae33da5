package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.notification.DeliveryScheduler;
import io.github.mcpsubscriptions.notification.ExecutorDeliveryScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Delivery runs on virtual threads exactly where {@code spring.threads.virtual.enabled}
 * says so (and the JDK has them), as the application's own executors do; on a pool of
 * {@code mcp.notifications.delivery-threads} platform threads otherwise.
 */
class VirtualThreadsTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class, McpEndpointAutoConfiguration.class));

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void deliveryRunsOnVirtualThreadsWhereSpringTurnsThemOn() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			assertThat(context.getBean(ExecutorDeliveryScheduler.class).isVirtual()).isTrue();
			Set<Thread> threads = deliveryThreads(context.getBean(DeliveryScheduler.class), 8);
			assertThat(threads).isNotEmpty().allMatch(VirtualThreadsTests::isVirtual);
			assertThat(threads).extracting(Thread::getName).allMatch((name) -> name.startsWith("mcp-delivery-"));
		});
	}

	@Test
	void deliveryRunsOnPlatformThreadsUnlessSpringTurnsVirtualThreadsOn() {
		for (List<String> properties : List.of(List.<String>of(), List.of("spring.threads.virtual.enabled=false"))) {
			this.runner.withPropertyValues(properties.toArray(String[]::new)).run((context) -> {
				assertThat(context.getBean(ExecutorDeliveryScheduler.class).isVirtual()).isFalse();
				Set<Thread> threads = deliveryThreads(context.getBean(DeliveryScheduler.class), 8);
				assertThat(threads).isNotEmpty().noneMatch(VirtualThreadsTests::isVirtual);
				assertThat(threads).allMatch(Thread::isDaemon)
					.extracting(Thread::getName)
					.allMatch((name) -> name.matches("mcp-delivery-\\d+"));
			});
		}
	}

	@Test
	void thePoolOfPlatformThreadsHasTheConfiguredSize() {
		this.runner.withPropertyValues("mcp.notifications.delivery-threads=3").run((context) -> {
			// Fifty tasks: a fixed pool of three runs them all on the same three threads.
			Set<Thread> threads = deliveryThreads(context.getBean(DeliveryScheduler.class), 50);
			assertThat(threads).extracting(Thread::getName)
				.isSubsetOf("mcp-delivery-1", "mcp-delivery-2", "mcp-delivery-3");
		});
	}

	@Test
	@EnabledForJreRange(max = JRE.JAVA_20)
	void belowJdk21TheSettingLeavesDeliveryOnPlatformThreads() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			assertThat(context.getBean(ExecutorDeliveryScheduler.class).isVirtual()).isFalse();
			assertThat(deliveryThreads(context.getBean(DeliveryScheduler.class), 8)).isNotEmpty()
				.allMatch((thread) -> thread.getName().matches("mcp-delivery-\\d+"));
		});
	}

	private static Set<Thread> deliveryThreads(DeliveryScheduler scheduler, int tasks) throws InterruptedException {
		Set<Thread> threads = ConcurrentHashMap.newKeySet();
		CountDownLatch done = new CountDownLatch(tasks);
		for (int i = 0; i < tasks; i++) {
			scheduler.execute(() -> {
				threads.add(Thread.currentThread());
				done.countDown();
			});
		}
		assertThat(done.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the tasks ran").isTrue();
		return threads;
	}

	/** Without {@code Thread.isVirtual()}, which the Java 17 API lacks. */
	static boolean isVirtual(Thread thread) {
		return thread.getClass().getName().equals("java.lang.VirtualThread");
	}

}
