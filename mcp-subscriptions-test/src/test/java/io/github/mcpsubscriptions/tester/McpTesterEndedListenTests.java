package io.github.mcpsubscriptions.tester;

import java.time.Duration;

import io.github.mcpsubscriptions.tester.notes.NotesApplication;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A listen stream the server ends (here at {@code mcp.listen.max-duration}) cannot hear
 * of anything: a negative assertion on it fails rather than passing without testing
 * anything.
 */
@SpringBootTest(classes = NotesApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "mcp.listen.max-duration=1s")
@AutoConfigureMcpTester
class McpTesterEndedListenTests {

	@Autowired
	private McpTester mcp;

	@Test
	void assertNoNotificationFailsOnAListenStreamTheServerEnded() {
		try (McpSubscription listen = this.mcp.listen("notes://items/1")) {
			await().atMost(Duration.ofSeconds(10)).until(listen::isStreamEnded);

			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> listen.assertNoNotification(Duration.ofMillis(200)))
				.withMessageStartingWith(
						"Expected no notification for [notes://items/1] within PT0.2S on 2026 listen stream")
				.withMessageContaining("but the stream is gone: it ended, so nothing could have arrived.")
				.withMessageContaining("notifications/subscriptions/acknowledged")
				.withMessageContaining("The stream ended at +");
		}
	}

}
