package io.github.mcpsubscriptions.tester;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.server.ListenManager;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.session.SessionEndReason;
import io.github.mcpsubscriptions.tester.notes.NotesApplication;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The tester against a real server on a random port, in both eras.
 */
// Streams closed by their clients over HTTP/1.1 are found by heartbeats: two intervals.
@SpringBootTest(classes = NotesApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "mcp.endpoint.heartbeat-interval=300ms")
@AutoConfigureMcpTester
class McpTesterTests {

	private static final Duration QUIET = Duration.ofMillis(500);

	@Autowired
	private McpTester mcp;

	@Autowired
	private ApplicationEventPublisher events;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private ListenManager listens;

	@LocalServerPort
	private int port;

	private void change(long id) {
		this.events.publishEvent(new ResourceChangedEvent("notes://items/" + id, Map.of("by", "test")));
	}

	@Test
	void theTesterFindsTheServer() {
		assertThat(this.mcp.endpoint()).hasToString("http://localhost:" + this.port + "/mcp");
	}

	@Test
	void aSessionListsReadsAndIsToldOfAChange() {
		try (McpSession session = this.mcp.session()) {
			assertThat(session.protocolVersion()).isEqualTo("2025-11-25");
			assertThat(session.listResources().uris()).contains("notes://items", "notes://items/1");
			assertThat(session.read("notes://items/1").text()).contains("milk");
			McpSubscription subscription = session.subscribe("notes://items/1");

			change(1);

			McpNotification notification = subscription.awaitNotification();
			assertThat(notification.uri()).isEqualTo("notes://items/1");
			assertThat(notification.subscribedUri()).isEqualTo("notes://items/1");
			assertThat(notification.meta()).containsEntry("by", "test");
		}
	}

	@Test
	void aListenStreamIsToldOfAChange() {
		try (McpSubscription notes = this.mcp.listen("notes://items")) {
			assertThat(notes.acknowledged()).containsExactly("notes://items");

			change(2);

			McpNotification notification = notes.awaitNotification(Duration.ofSeconds(5));
			assertThat(notification.uri()).isEqualTo("notes://items/2");
			assertThat(notification.subscribedUri()).isEqualTo("notes://items");
			assertThat(notification.meta()).containsEntry("by", "test")
				.containsKey("io.modelcontextprotocol/subscriptionId");
		}
	}

	@Test
	void statelessRequestsReadAndList() {
		assertThat(this.mcp.listResources().uris()).contains("notes://items", "notes://items/3");
		McpResult read = this.mcp.read("notes://items/3");
		assertThat(read.text()).contains("tea");
		assertThat(read.json().path("resultType").asString()).isEqualTo("complete");
	}

	@Test
	void aTesterForAUrlTalksToAnyServer() {
		try (McpTester tester = McpTester.forUrl("http://127.0.0.1:" + this.port + "/mcp")) {
			assertThat(tester.read("notes://items/2").text()).contains("bread");
			try (McpSession session = tester.session("2025-06-18")) {
				assertThat(session.protocolVersion()).isEqualTo("2025-06-18");
			}
		}
	}

	@Test
	void aListenStreamLeavesOutWhatCoversNothing() {
		try (McpSubscription listen = this.mcp.listen("notes://items/1", "nothing://here")) {
			assertThat(listen.acknowledged()).containsExactly("notes://items/1");
		}
	}

	@Test
	void assertNoNotificationPassesWhenAnotherResourceChanges() {
		try (McpSession session = this.mcp.session()) {
			McpSubscription one = session.subscribe("notes://items/1");
			McpSubscription two = session.subscribe("notes://items/2");

			change(2);

			assertThat(two.awaitNotification().uri()).isEqualTo("notes://items/2");
			one.assertNoNotification(QUIET);
		}
	}

	@Test
	void assertNoNotificationFailsWithWhatArrived() {
		try (McpSubscription listen = this.mcp.listen("notes://items/1")) {
			change(1);

			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> listen.assertNoNotification(Duration.ofSeconds(5)))
				.withMessageContaining("Expected no notification for [notes://items/1]")
				.withMessageContaining("one for notes://items/1 (subscribedUri notes://items/1) arrived at +")
				.withMessageContaining("notifications/subscriptions/acknowledged")
				.withMessageContaining("\"method\":\"notifications/resources/updated\"");
		}
	}

	@Test
	void awaitNotificationFailsWithWhatArrivedAndWhen() {
		try (McpSession session = this.mcp.session()) {
			McpSubscription one = session.subscribe("notes://items/1");
			McpSubscription two = session.subscribe("notes://items/2");
			change(2);
			two.awaitNotification();

			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> one.awaitNotification(Duration.ofMillis(200)))
				.withMessageStartingWith("Expected a notification for [notes://items/1] within PT0.2S on 2025 session "
						+ session.id() + ", but none came.")
				.withMessageContaining("What arrived on the GET stream of 2025 session " + session.id())
				.withMessageMatching("(?s).*\\n  \\+\\d+ ms  \\{.*\"uri\":\"notes://items/2\".*");
		}
	}

	@Test
	void aSessionIsToldThatTheListChangedWhenANoteComesOrGoes() {
		try (McpSession session = this.mcp.session()) {
			this.events.publishEvent(new ResourceChangedEvent("notes://items/9", Map.of("change", "created")));
			session.awaitListChanged();
			this.events.publishEvent(new ResourceChangedEvent("notes://items/9", Map.of("change", "deleted")));
			session.awaitListChanged();
		}
	}

	@Test
	void awaitListChangedFailsWithWhatArrived() {
		try (McpSession session = this.mcp.session()) {
			McpSubscription subscription = session.subscribe("notes://items/2");
			change(2);
			subscription.awaitNotification();
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> session.awaitListChanged(Duration.ofMillis(100)))
				.withMessageContaining("Expected notifications/resources/list_changed within PT0.1S, but none came.")
				.withMessageContaining("What arrived on the GET stream of 2025 session " + session.id())
				.withMessageMatching("(?s).*\\n  \\+\\d+ ms  \\{.*\"uri\":\"notes://items/2\".*");
		}
	}

	@Test
	void awaitNotificationSaysWhenNothingArrived() {
		try (McpSubscription listen = this.mcp.withCorrelation(false).listen("notes://items/3")) {
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> listen.awaitNotification(Duration.ofMillis(100)))
				.withMessageContaining("but none came")
				.withMessageContaining("notifications/subscriptions/acknowledged");
		}
	}

	@Test
	void errorsCarryTheirCode() {
		assertThatExceptionOfType(McpErrorException.class).isThrownBy(() -> this.mcp.read("notes://items/99"))
			.satisfies((error) -> assertThat(error.code()).isEqualTo(-32602))
			.withMessageContaining("-32602");
		try (McpSession session = this.mcp.session()) {
			assertThatExceptionOfType(McpErrorException.class).isThrownBy(() -> session.read("notes://items/99"))
				.satisfies((error) -> assertThat(error.code()).isEqualTo(-32002));
			assertThatExceptionOfType(McpErrorException.class).isThrownBy(() -> session.subscribe("nothing://here"))
				.satisfies((error) -> assertThat(error.code()).isEqualTo(-32002));
		}
	}

	@Test
	void aCorrelatingClientHearsOncePerMatchingSubscription() {
		try (McpSession session = this.mcp.withCorrelation(true).session()) {
			McpSubscription collection = session.subscribe("notes://items");
			McpSubscription one = session.subscribe("notes://items/1");

			change(1);

			assertThat(one.awaitNotification().subscribedUri()).isEqualTo("notes://items/1");
			assertThat(collection.awaitNotification().subscribedUri()).isEqualTo("notes://items");
		}
	}

	@Test
	void anUncorrelatedClientHearsOncePerChange() {
		try (McpSession session = this.mcp.withCorrelation(false).session()) {
			McpSubscription collection = session.subscribe("notes://items");
			McpSubscription one = session.subscribe("notes://items/1");

			change(1);

			assertThat(one.awaitNotification().subscribedUri()).isEqualTo("notes://items/1");
			collection.assertNoNotification(QUIET);
		}
	}

	@Test
	void anUnsubscribedUriIsNotHeardOf() {
		// Uncorrelated, the server names only the most specific subscription: the
		// collection
		// hears of the change only if the order's subscription has gone.
		try (McpSession session = this.mcp.withCorrelation(false).session()) {
			McpSubscription collection = session.subscribe("notes://items");
			session.subscribe("notes://items/3").close();

			change(3);

			assertThat(collection.awaitNotification().subscribedUri()).isEqualTo("notes://items");
			collection.assertNoNotification(QUIET);
		}
	}

	@Test
	void aReopenedStreamKeepsTheSubscriptions() {
		try (McpSession session = this.mcp.session()) {
			McpSubscription subscription = session.subscribe("notes://items/1");

			session.reopenStream();
			change(1);

			assertThat(subscription.awaitNotification().uri()).isEqualTo("notes://items/1");
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> subscription.awaitNotification(Duration.ofMillis(100)))
				.withMessageContaining("(the stream was reopened through " + this.mcp.endpoint() + ")")
				.withMessageNotContaining("ended");
		}
	}

	@Test
	void aSessionViaAnotherTesterIsTheSameSession() {
		try (McpTester other = McpTester.forUrl("http://127.0.0.1:" + this.port + "/mcp");
				McpSession session = this.mcp.session()) {
			McpSession via = session.via(other);
			assertThat(via.id()).isEqualTo(session.id());
			assertThat(via).hasToString("McpSession " + session.id() + " (2025-11-25) via " + other.endpoint());
			McpSubscription subscription = via.subscribe("notes://items/2");

			change(2);

			assertThat(subscription.awaitNotification().uri()).isEqualTo("notes://items/2");
			via.reopenStream();
			change(2);
			assertThat(subscription.awaitNotification().uri()).isEqualTo("notes://items/2");
		}
	}

	@Test
	void closingASessionEndsIt() {
		McpSession session = this.mcp.session();
		session.close();
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> session.read("notes://items/1"))
			.withMessageContaining("404");
	}

	@Test
	void assertNoNotificationPassesOnALiveStreamThatHearsNothing() {
		try (McpSession session = this.mcp.session(); McpSubscription listen = this.mcp.listen("notes://items/3")) {
			McpSubscription subscription = session.subscribe("notes://items/3");
			subscription.assertNoNotification(QUIET);
			listen.assertNoNotification(QUIET);
		}
	}

	@Test
	void assertNoNotificationFailsOnTheStreamOfASessionTheServerEnded() {
		try (McpSession session = this.mcp.session()) {
			McpSubscription subscription = session.subscribe("notes://items/1");
			this.sessions.end(session.id(), SessionEndReason.DELETED);
			await().atMost(Duration.ofSeconds(10)).until(subscription::isStreamEnded);

			assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> subscription.assertNoNotification(QUIET))
				.withMessageStartingWith("Expected no notification for [notes://items/1] within PT0.5S on 2025 session "
						+ session.id() + ", but the stream is gone")
				.withMessageContaining("The stream ended at +");
		}
	}

	@Test
	void assertNoNotificationFailsOnAListenStreamThatWasClosed() {
		McpSubscription listen = this.mcp.listen("notes://items/1");
		listen.close();
		await().atMost(Duration.ofSeconds(10)).until(listen::isStreamEnded);

		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> listen.assertNoNotification(QUIET))
			.withMessageContaining("but the stream is gone")
			.withMessageContaining("(the subscription was closed)");
	}

	@Test
	void closingTestersEndsTheirSessionsAndListenStreamsAndStopsTheirThreads() {
		// The other tests' listen streams, closed by their clients, are released by the
		// server once it notices: counted from a server that holds none, so that one
		// released during this test cannot make the count look right.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.listens.getOpenStreamCount() == 0);
		int listening = 0;
		List<String> prefixes = new ArrayList<>();
		List<McpSession> sessions = new ArrayList<>();
		List<McpTester> testers = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			McpTester tester = McpTester.forUrl("http://127.0.0.1:" + this.port + "/mcp");
			testers.add(tester);
			prefixes.add(tester.threadNamePrefix());
			assertThat(tester.read("notes://items/1").text()).contains("milk");
			// Left open: closing the tester ends them.
			McpSession session = tester.withTimeout(Duration.ofSeconds(5)).session();
			session.subscribe("notes://items/1");
			sessions.add(session);
			tester.listen("notes://items/2");
		}
		assertThat(prefixes).doesNotHaveDuplicates();
		assertThat(threadsNamed(prefixes)).as("the testers' threads").isNotEmpty();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.listens.getOpenStreamCount() == listening + 5);

		testers.forEach(McpTester::close);

		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(threadsNamed(prefixes)).isEmpty());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.listens.getOpenStreamCount() == listening);
		for (McpSession session : sessions) {
			assertThat(this.sessions.getStore().find(session.id())).as("session " + session.id()).isNull();
		}
		assertThatIllegalStateException().isThrownBy(() -> testers.get(0).read("notes://items/1"))
			.withMessageContaining("closed");
	}

	@Test
	void closingACopyEndsOnlyWhatWasOpenedThroughIt() {
		try (McpTester tester = McpTester.forUrl("http://127.0.0.1:" + this.port + "/mcp")) {
			McpSession kept = tester.session();
			McpTester copy = tester.withTimeout(Duration.ofSeconds(5));
			McpSession ended = copy.session();

			copy.close();

			assertThat(this.sessions.getStore().find(ended.id())).isNull();
			assertThat(this.sessions.getStore().find(kept.id())).isNotNull();
			assertThat(copy.read("notes://items/1").text()).as("the copy's client is its tester's").contains("milk");
			tester.close();
			assertThat(this.sessions.getStore().find(kept.id())).isNull();
		}
	}

	private static List<String> threadsNamed(List<String> prefixes) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> prefixes.stream().anyMatch(name::startsWith))
			.toList();
	}

}
