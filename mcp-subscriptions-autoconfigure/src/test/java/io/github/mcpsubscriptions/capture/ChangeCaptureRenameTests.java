package io.github.mcpsubscriptions.capture;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.WAIT;
import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.assertNotified;
import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.listen;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A captured table renamed while the capture runs: the capture says so (a WARN, a meter),
 * tells its template's subscribers to re-read, and goes on capturing it under its new
 * name, which its trigger still fires for.
 */
@ExtendWith(OutputCaptureExtension.class)
class ChangeCaptureRenameTests {

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void aCapturedTableRenamedWhileRunningIsWarnedCountedResyncedAndStillCaptured(CapturedOutput output)
			throws Exception {
		ConfigurableApplicationContext node = this.nodes.start();
		try (SseStream stream = listen(node, "catalog://products/{id}")) {
			this.nodes.sql("insert into product values (1, 'tea', 1)");
			assertNotified(stream, "catalog://products/1", "created");
			this.nodes.sql("alter table product rename to goods");
			this.nodes.sql("insert into goods values (2, 'renamed', 1)");
			// The resync (which supersedes what the subscriber's outbox still holds),
			// perhaps
			// after the insert, whichever the capture sees first.
			List<String> heard = new ArrayList<>();
			while (!heard.contains("catalog://products resync")) {
				SseEvent event = stream.nextMessage(WAIT);
				assertThat(event).as("a resync, heard %s", heard).isNotNull();
				JsonNode params = json(event.data()).get("params");
				JsonNode resync = params.get("_meta").get(NotificationEngine.RESYNC_META);
				heard.add(params.get("uri").stringValue() + " " + ((resync != null && resync.booleanValue()) ? "resync"
						: params.get("_meta").get("change").stringValue()));
			}
			assertThat(heard).isSubsetOf("catalog://products resync", "catalog://products/2 created");
			this.nodes.sql("update goods set price = 3 where id = 2");
			assertNotified(stream, "catalog://products/2", "updated");
			assertThat(stream.nextMessage(Duration.ofMillis(500))).as("one resync").isNull();
		}
		assertThat(node.getBean(MeterRegistry.class).get("mcp.capture.tables.renamed").functionCounter().count())
			.isEqualTo(1);
		assertThat(output.getOut())
			.contains(this.nodes.schema() + ".product was renamed to " + this.nodes.schema() + ".goods");
	}

}
