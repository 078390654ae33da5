package io.github.mcpsubscriptions.session;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Periodic housekeeping survives a failing run, an {@link Error} included.
 */
@ExtendWith(OutputCaptureExtension.class)
class MaintenanceExecutorTests {

	@Test
	void aTaskThatThrewAnErrorRunsAgain() throws InterruptedException {
		AtomicInteger runs = new AtomicInteger();
		CountDownLatch ranAgain = new CountDownLatch(2);
		try (MaintenanceExecutor executor = new MaintenanceExecutor("test-maintenance")) {
			executor.every(Duration.ofMillis(10), () -> {
				if (runs.incrementAndGet() == 1) {
					throw new OutOfMemoryError("simulated");
				}
				ranAgain.countDown();
			});
			assertThat(ranAgain.await(30, TimeUnit.SECONDS)).isTrue();
		}
		assertThat(runs.get()).isGreaterThanOrEqualTo(3);
	}

	@Test
	void aTaskThatThrewARuntimeExceptionRunsAgain(CapturedOutput output) throws InterruptedException {
		CountDownLatch ranAgain = new CountDownLatch(2);
		AtomicInteger runs = new AtomicInteger();
		try (MaintenanceExecutor executor = new MaintenanceExecutor("test-maintenance")) {
			executor.every(Duration.ofMillis(10), () -> {
				if (runs.incrementAndGet() == 1) {
					throw new IllegalStateException("simulated");
				}
				ranAgain.countDown();
			});
			assertThat(ranAgain.await(30, TimeUnit.SECONDS)).isTrue();
		}
		// Logged by the run that failed, before the runs that followed it.
		assertThat(output).contains("ERROR")
			.contains("Periodic task of test-maintenance failed")
			.contains("IllegalStateException: simulated");
	}

}
