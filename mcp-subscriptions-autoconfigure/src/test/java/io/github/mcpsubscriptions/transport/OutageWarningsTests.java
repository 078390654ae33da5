package io.github.mcpsubscriptions.transport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An outage logs one WARN per interval, however many requests it refuses.
 */
@ExtendWith(OutputCaptureExtension.class)
class OutageWarningsTests {

	private static final Log logger = LogFactory.getLog(OutageWarningsTests.class);

	private final AtomicLong nanos = new AtomicLong(1_000);

	private final OutageWarnings warnings = new OutageWarnings(logger, 30, TimeUnit.SECONDS, this.nanos::get);

	@Test
	void theFirstRefusalWarnsTheOthersOfTheIntervalAreCountedInTheNextWarning(CapturedOutput output) {
		for (int i = 0; i < 50; i++) {
			this.warnings.refused("Redis cannot be reached (find a session)");
		}
		assertThat(warnings(output)).isEqualTo(1);
		assertThat(output)
			.contains("Redis cannot be reached (find a session) (further refusals are logged at DEBUG for 30 s)");

		this.nanos.addAndGet(TimeUnit.SECONDS.toNanos(29));
		this.warnings.refused("Redis cannot be reached (find a session)");
		assertThat(warnings(output)).isEqualTo(1);

		this.nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
		this.warnings.refused("Redis cannot be reached (append)");
		assertThat(warnings(output)).isEqualTo(2);
		assertThat(output).contains("Redis cannot be reached (append) (50 more refused since the last warning)");
	}

	private static long warnings(CapturedOutput output) {
		return output.getOut()
			.lines()
			.filter((line) -> line.contains("WARN") && line.contains("cannot be reached"))
			.count();
	}

}
