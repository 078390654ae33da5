package io.github.mcpsubscriptions.metrics;

import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.server.McpServerInfo;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.subscription.McpSubscriptionAuditEvent;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.ConversionService;
import org.springframework.util.ClassUtils;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real subscriptions over a real port, then what the meters, the Actuator endpoint, the
 * health indicator, the observation and the audit events say about them.
 */
@SpringBootTest(classes = { McpTestApplication.class, McpObservabilityTests.Config.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=health,mcpsubscriptions",
				"management.endpoint.health.show-details=always" })
class McpObservabilityTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	@LocalServerPort
	private int port;

	@Autowired
	private MeterRegistry meters;

	@Autowired
	private ApplicationEventPublisher events;

	@Autowired
	private Config config;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private NotificationEngine dispatcher;

	@Autowired
	private McpServerInfo serverInfo;

	@Test
	void metersEndpointHealthObservationAndAuditFollowRealTraffic() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		String session = client.initialize();
		assertThat(result(client.call(session, "resources/subscribe", "{\"uri\":\"shop://items/1\"}"))).isNotNull();
		assertThat(result(client.call(session, "resources/subscribe", "{\"uri\":\"shop://items/{id}\"}"))).isNotNull();
		assertThat(result(client.call(session, "resources/subscribe", "{\"uri\":\"shop://items/\"}"))).isNotNull();
		assertThat(json(client.call(session, "resources/subscribe", "{\"uri\":\"nothing://here\"}").body()).get("error")
			.get("code")
			.intValue()).isEqualTo(-32002);
		assertThat(result(client.call(session, "resources/unsubscribe", "{\"uri\":\"shop://items/\"}"))).isNotNull();

		try (SseStream stream = client.openStream(session)) {
			this.events.publishEvent(new ResourceChangedEvent("shop://items/1"));
			assertThat(stream.nextMessage(WAIT)).isNotNull();
			assertThat(stream.nextMessage(WAIT)).isNotNull();

			assertThat(gauge("mcp.sessions.active", null, null)).isGreaterThanOrEqualTo(1);
			assertThat(gauge("mcp.streams.open", "era", "2025")).isGreaterThanOrEqualTo(1);
			assertThat(gauge("mcp.streams.open", "era", "2026")).isZero();
			assertThat(gauge("mcp.subscriptions.active", "kind", "exact")).isEqualTo(1);
			assertThat(gauge("mcp.subscriptions.active", "kind", "template")).isEqualTo(1);
			assertThat(gauge("mcp.subscriptions.active", "kind", "prefix")).isZero();
			assertThat(this.meters.get("mcp.events.received").functionCounter().count()).isGreaterThanOrEqualTo(1);
			await().atMost(WAIT).until(() -> this.meters.get("mcp.notifications.sent").functionCounter().count() >= 2);
			assertThat(this.meters.get("mcp.notifications.latency").timer().count()).isGreaterThanOrEqualTo(2);
			assertThat(this.meters.get("mcp.subscriptions.rejected").tag("reason", "not-found").counter().count())
				.isEqualTo(1);
			assertThat(this.meters.get("mcp.notifications.dropped").tag("reason", "filtered").functionCounter().count())
				.isZero();
			assertThat(this.meters.get("mcp.notifications.held-back").functionCounter().count())
				.as("a server that keeps up holds no lane's turn back")
				.isZero();
			// No meter carries a session id or a URI.
			assertThat(this.meters.getMeters()).allSatisfy((meter) -> assertThat(meter.getId().getTags())
				.noneMatch((tag) -> tag.getValue().contains("://") || tag.getValue().equals(session)));

			JsonNode report = json(get("/actuator/mcpsubscriptions").body());
			assertThat(report.get("totals").get("subscriptions").intValue()).isEqualTo(2);
			assertThat(report.get("totals").get("openStreams").intValue()).isGreaterThanOrEqualTo(1);
			assertThat(report.get("subscriptionsByKind").get("template").intValue()).isEqualTo(1);
			assertThat(report.get("topSubscribedUris").get(0).get("subscribers").intValue()).isEqualTo(1);
			assertThat(report.toString()).doesNotContain(session);
			JsonNode mine = null;
			for (JsonNode entry : report.get("sessions")) {
				if (entry.get("subscriptions").intValue() == 2) {
					mine = entry;
				}
			}
			assertThat(mine).isNotNull();
			assertThat(mine.get("streamOpen").booleanValue()).isTrue();
			assertThat(mine.get("id").stringValue()).startsWith("session-");
			assertThat(report.get("configuration").get("endpoint").get("path").stringValue()).isEqualTo("/mcp");

			HttpResponse<String> close = client.send(HttpRequest
				.newBuilder(client.endpoint().resolve("/actuator/mcpsubscriptions/" + mine.get("id").stringValue()))
				.DELETE()
				.build());
			assertThat(close.statusCode()).as("closing is off by default").isEqualTo(403);

			JsonNode health = json(get("/actuator/health/mcp").body());
			assertThat(health.get("status").stringValue()).isEqualTo("UP");
			assertThat(health.get("details").get("dispatchBacklog").intValue()).isZero();
		}

		assertThat(this.config.observations).contains("mcp.notification.dispatch scheme=shop");
		assertThat(this.config.audit).containsSubsequence("SUBSCRIBE shop://items/1", "SUBSCRIBE shop://items/{id}",
				"REJECT nothing://here NOT_FOUND", "UNSUBSCRIBE shop://items/");
	}

	@Test
	void configurationShowsEverySettingAsAValueThePropertyAccepts() throws Exception {
		JsonNode configuration = json(get("/actuator/mcpsubscriptions").body()).get("configuration");
		ConversionService conversion = ApplicationConversionService.getSharedInstance();
		int checked = 0;
		try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			for (JsonNode property : JsonMapper.builder().build().readTree(in).get("properties")) {
				String name = property.get("name").stringValue();
				if (!name.startsWith("mcp.")) {
					continue;
				}
				JsonNode node = configuration;
				for (String part : name.substring(4).split("\\.")) {
					node = (node != null) ? node.get(camelCase(part)) : null;
				}
				String type = property.get("type").stringValue();
				assertThat(node).as("configuration shows %s", name).isNotNull();
				if (type.startsWith("java.util.Map")) {
					assertThat(node.isObject()).as("%s is a map", name).isTrue();
					continue;
				}
				if (type.startsWith("java.util.List")) {
					assertThat(node.isArray()).as("%s is a list", name).isTrue();
					continue;
				}
				assertThat(node.isValueNode()).as("%s is a plain value, not %s", name, node).isTrue();
				JsonNode defaultValue = property.get("defaultValue");
				if (defaultValue != null && !defaultValue.isNull()) {
					Class<?> valueType = ClassUtils
						.resolvePrimitiveIfNecessary(ClassUtils.forName(type, getClass().getClassLoader()));
					assertThat(conversion.convert(node.asString(), valueType)).as("%s is its default", name)
						.isEqualTo(conversion.convert(defaultValue.asString(), valueType));
					checked++;
				}
			}
		}
		assertThat(checked).as("settings with a default compared").isGreaterThan(20);
		assertThat(configuration.get("endpoint").get("maxRequestSize").stringValue()).isEqualTo("4194304B");
		assertThat(configuration.get("server").get("name").stringValue()).isEqualTo(this.serverInfo.name())
			.isNotBlank();
		assertThat(configuration.get("server").get("version").stringValue()).isEqualTo(this.serverInfo.version())
			.isNotBlank();
	}

	private static String camelCase(String kebab) {
		StringBuilder camel = new StringBuilder();
		boolean upper = false;
		for (char c : kebab.toCharArray()) {
			if (c == '-') {
				upper = true;
			}
			else {
				camel.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return camel.toString();
	}

	@Test
	void endpointClosesSessionsWhenAllowed() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		String session = client.initialize();
		String id = this.sessions.getSubscriber(this.sessions.find(session, null)).getId();
		McpSubscriptionsEndpoint endpoint = new McpSubscriptionsEndpoint(this.sessions, this.dispatcher, "", 10, true);
		assertThat(endpoint.closeSession(id).getStatus()).isEqualTo(200);
		assertThat(client.call(session, "ping", null).statusCode()).isEqualTo(404);
		assertThat(endpoint.closeSession(id).getStatus()).isEqualTo(404);
	}

	private double gauge(String name, String tag, String value) {
		return (tag != null) ? this.meters.get(name).tag(tag, value).gauge().value()
				: this.meters.get(name).gauge().value();
	}

	private HttpResponse<String> get(String path) throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		return client.send(HttpRequest.newBuilder(client.endpoint().resolve(path)).GET().build());
	}

	private static JsonNode result(HttpResponse<String> response) {
		return json(response.body()).get("result");
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		final List<String> observations = new CopyOnWriteArrayList<>();

		final List<String> audit = new CopyOnWriteArrayList<>();

		@Bean
		ShopResources shopResources() {
			return new ShopResources();
		}

		@Bean
		ObservationHandler<Observation.Context> recordingHandler() {
			return new ObservationHandler<>() {

				@Override
				public boolean supportsContext(Observation.Context context) {
					return McpDispatchObservation.NAME.equals(context.getName());
				}

				@Override
				public void onStop(Observation.Context context) {
					Config.this.observations.add(context.getName() + " scheme="
							+ context.getLowCardinalityKeyValue("mcp.uri.scheme").getValue());
				}

			};
		}

		@Bean
		ApplicationListener<McpSubscriptionAuditEvent> auditRecorder() {
			return (event) -> this.audit.add(event.getAction() + " " + event.getUri()
					+ ((event.getReason() != null) ? " " + event.getReason() : ""));
		}

	}

	static class ShopResources {

		@McpResource(uri = "shop://items/{id}")
		String item(String id) {
			return id;
		}

	}

}
