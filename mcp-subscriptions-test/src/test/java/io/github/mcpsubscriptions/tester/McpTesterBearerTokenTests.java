package io.github.mcpsubscriptions.tester;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.tester.notes.NotesApplication;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationEventPublisher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The tester against an endpoint that wants a bearer token.
 */
@SpringBootTest(classes = NotesApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "notes.bearer-token=s3cret")
@AutoConfigureMcpTester
class McpTesterBearerTokenTests {

	@Autowired
	private McpTester mcp;

	@Autowired
	private ApplicationEventPublisher events;

	@Test
	void withoutTheTokenEveryEraIsUnauthorized() {
		assertThatExceptionOfType(McpHttpException.class).isThrownBy(() -> this.mcp.session())
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(401))
			.withMessage("initialize was answered with HTTP 401 (WWW-Authenticate: Bearer)");
		assertThatExceptionOfType(McpHttpException.class).isThrownBy(() -> this.mcp.listen("notes://items"))
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(401));
		assertThatExceptionOfType(McpHttpException.class)
			.isThrownBy(() -> this.mcp.withBearerToken("wrong").read("notes://items/1"))
			.satisfies((ex) -> assertThat(ex.header("WWW-Authenticate")).hasValue("Bearer"));
	}

	@Test
	void withTheTokenBothErasAreToldOfAChange() {
		McpTester authorized = this.mcp.withBearerToken("s3cret");
		try (McpSession session = authorized.session(); McpSubscription listen = authorized.listen("notes://items/1")) {
			McpSubscription subscription = session.subscribe("notes://items/1");

			this.events.publishEvent(new ResourceChangedEvent("notes://items/1"));

			assertThat(subscription.awaitNotification().uri()).isEqualTo("notes://items/1");
			assertThat(listen.awaitNotification().uri()).isEqualTo("notes://items/1");
		}
	}

	@Test
	void aSessionViaAnotherTokenIsJudgedByThatToken() {
		McpTester authorized = this.mcp.withBearerToken("s3cret");
		try (McpSession session = authorized.session()) {
			McpSubscription subscription = session.subscribe("notes://items/2");
			assertThatExceptionOfType(McpHttpException.class)
				.isThrownBy(() -> session.via(this.mcp.withBearerToken("expired")).read("notes://items/2"))
				.satisfies((ex) -> assertThat(ex.status()).isEqualTo(401));
			assertThatExceptionOfType(McpHttpException.class).isThrownBy(() -> session.via(this.mcp).reopenStream())
				.satisfies((ex) -> assertThat(ex.status()).isEqualTo(401));

			session.via(authorized).reopenStream();
			this.events.publishEvent(new ResourceChangedEvent("notes://items/2"));

			assertThat(subscription.awaitNotification().uri()).isEqualTo("notes://items/2");
		}
	}

}
