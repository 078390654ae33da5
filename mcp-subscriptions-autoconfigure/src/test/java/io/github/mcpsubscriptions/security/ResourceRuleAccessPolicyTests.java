package io.github.mcpsubscriptions.security;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.McpResourceInstances;
import io.github.mcpsubscriptions.resource.ResourceCompleter;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceInstance;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.resource.UriVariable;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One rule per resource, over a real port with Spring Security (HTTP Basic users with
 * scope-like authorities): it decides reads, listings (pagination included),
 * subscriptions and every delivery, in both protocol eras, for annotated methods and for
 * definitions registered at run time.
 */
@SpringBootTest(
		classes = { McpTestApplication.class, ResourceRuleAccessPolicyTests.Catalog.class,
				ResourceRuleAccessPolicyTests.Security.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = "mcp.resources.page-size=2")
class ResourceRuleAccessPolicyTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher events;

	@Autowired
	private ResourceRegistry registry;

	@Test
	void readsFollowTheMethodsRuleWithTheUriVariablesByName() throws Exception {
		McpTestClient limited = client("limited");
		String session = limited.initialize();
		assertThat(read(limited, session, "catalog://products/3").get("result")).isNotNull();
		JsonNode refused = read(limited, session, "catalog://products/4");
		assertThat(refused.get("error").get("code").intValue()).isEqualTo(-32002);
		assertThat(refused.get("error").get("message").stringValue()).isEqualTo("Resource not found");
		McpTestClient full = client("full");
		assertThat(read(full, full.initialize(), "catalog://products/4").get("result")).isNotNull();
		McpTestClient nobody = client("nobody");
		assertThat(read(nobody, nobody.initialize(), "catalog://products").get("error").get("code").intValue())
			.isEqualTo(-32002);
	}

	@Test
	void listingsShowOnlyWhatTheCallerMayReadAndPageOverThat() throws Exception {
		assertThat(listAll(client("limited"))).containsExactly("catalog://products", "catalog://products/1",
				"catalog://products/2", "catalog://products/3");
		assertThat(listAll(client("full"))).containsExactly("catalog://products", "catalog://products/1",
				"catalog://products/2", "catalog://products/3", "catalog://products/4", "catalog://products/5");
		assertThat(listAll(client("nobody"))).isEmpty();
	}

	@Test
	void templatesAreHiddenOnlyFromCallersTheRuleDeniesWhateverTheVariables() throws Exception {
		// vault needs catalog:restricted whatever {name}; products need catalog:read
		// whatever {id}
		// (then depend on it); reports depend on {team} only, so nobody can be refused
		// them unseen.
		assertThat(listTemplates(client("full"))).containsExactlyInAnyOrder("catalog://products/{id}",
				"vault://secrets/{name}", "reports://{team}");
		assertThat(listTemplates(client("limited"))).containsExactlyInAnyOrder("catalog://products/{id}",
				"reports://{team}");
		assertThat(listTemplates(client("nobody"))).containsExactly("reports://{team}");
	}

	@Test
	void completionsOfferOnlyReadableInstances() throws Exception {
		McpTestClient limited = client("limited");
		JsonNode values = json(limited
			.call(limited.initialize(), "completion/complete",
					"{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"catalog://products/{id}\"},"
							+ "\"argument\":{\"name\":\"id\",\"value\":\"\"}}")
			.body()).get("result").get("completion").get("values");
		assertThat(values.valueStream().map(JsonNode::stringValue).toList()).containsExactly("1", "2", "3");
	}

	/**
	 * A completer's values are filtered as listed instances are: a value that would make
	 * a URI the caller may not read is not offered.
	 */
	@Test
	void completersOfferOnlyValuesThatMakeReadableUris() throws Exception {
		assertThat(complete(client("full"), "vault://secrets/{name}", "name", "")).containsExactly("alpha", "beta");
		assertThat(complete(client("limited"), "vault://secrets/{name}", "name", "")).isEmpty();
		assertThat(complete(client("full"), "reports://{team}", "team", "")).containsExactly("full");
		assertThat(complete(client("limited"), "reports://{team}", "team", "")).containsExactly("limited");
	}

	/**
	 * A resource unregistered at run time keeps no rule: its changes published afterwards
	 * (its deletion) reach only a subscription to that very URI, never the prefix or
	 * pattern subscribers who could not read it.
	 */
	@Test
	void aResourceUnregisteredAtRunTimeIsNotAnnouncedToThoseWhoCouldNotReadIt() throws Exception {
		this.registry.register(ResourceDefinition.builder("shared://files/secret.txt", (request) -> "secret")
			.accessRule("hasAuthority('SCOPE_catalog:restricted')")
			.build());
		this.registry.register(ResourceDefinition.builder("shared://files/open.txt", (request) -> "open").build());
		try {
			McpTestClient limited = client("limited");
			String session = limited.initialize();
			for (String uri : List.of("shared://files", "shared://files/?pattern=*.txt")) {
				assertThat(json(limited.call(session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}").body())
					.get("result")).as(uri).isNotNull();
			}
			McpTestClient full = client("full");
			String owner = full.initialize();
			assertThat(json(full.call(owner, "resources/subscribe", "{\"uri\":\"shared://files/secret.txt\"}").body())
				.get("result")).isNotNull();
			try (SseStream stream = limited.openStream(session); SseStream owned = full.openStream(owner)) {
				this.registry.unregister("shared://files/secret.txt");
				this.events.publishEvent(new ResourceChangedEvent("shared://files/secret.txt"));
				this.events.publishEvent(new ResourceChangedEvent("shared://files/open.txt"));
				// Order is kept: the open file's notifications come after any for the
				// secret.
				assertThat(updatedUntil(stream, "shared://files/open.txt")).containsOnly("shared://files/open.txt");
				assertThat(updatedUntil(owned, "shared://files/secret.txt"))
					.containsExactly("shared://files/secret.txt");
			}
		}
		finally {
			this.registry.unregister("shared://files/secret.txt");
			this.registry.unregister("shared://files/open.txt");
		}
	}

	/** The URIs of {@code updated} notifications, up to one for the given URI. */
	private static List<String> updatedUntil(SseStream stream, String last) throws Exception {
		List<String> updated = new ArrayList<>();
		while (!updated.contains(last)) {
			SseEvent event = stream.nextMessage(WAIT);
			assertThat(event).as("a notification after " + updated).isNotNull();
			JsonNode message = json(event.data());
			if (message.get("method").stringValue().equals("notifications/resources/updated")) {
				updated.add(message.get("params").get("uri").stringValue());
			}
		}
		return updated;
	}

	private static List<String> complete(McpTestClient client, String template, String variable, String value)
			throws Exception {
		JsonNode values = json(client
			.call(client.initialize(), "completion/complete",
					"{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"" + template + "\"},\"argument\":{\"name\":\""
							+ variable + "\",\"value\":\"" + value + "\"}}")
			.body()).get("result").get("completion").get("values");
		return values.valueStream().map(JsonNode::stringValue).toList();
	}

	@Test
	void aHiddenAndANonexistentUriAreAnsweredAlikeInBothEras() throws Exception {
		// Product 4 exists and its rule hides it from the limited client; product 999999
		// does not exist and its rule would let anyone read it. Nothing may tell them
		// apart.
		McpTestClient limited = client("limited");
		String hidden = "catalog://products/4";
		String nonexistent = "catalog://products/999999";
		assertThat(answer(limited, limited.initialize(), "resources/subscribe", hidden))
			.isEqualTo(answer(limited, limited.initialize(), "resources/subscribe", nonexistent))
			.contains("\"result\"");
		assertThat(answer(limited, limited.initialize(), "resources/read", hidden))
			.isEqualTo(answer(limited, limited.initialize(), "resources/read", nonexistent))
			.contains("-32002");
		assertThat(acknowledgement(limited, hidden)).isEqualTo(acknowledgement(limited, nonexistent))
			.contains("\"resourceSubscriptions\":[\"URI\"]");
		HttpResponse<String> hiddenRead = limited.stateless("resources/read", "\"uri\":\"" + hidden + "\"");
		HttpResponse<String> nonexistentRead = limited.stateless("resources/read", "\"uri\":\"" + nonexistent + "\"");
		assertThat(hiddenRead.statusCode()).isEqualTo(nonexistentRead.statusCode());
		assertThat(normalized(hiddenRead.body(), hidden)).isEqualTo(normalized(nonexistentRead.body(), nonexistent))
			.contains("-32602");
	}

	@Test
	void aResyncOfAHiddenAndOfANonexistentUriIsAlike() throws Exception {
		McpTestClient limited = client("limited");
		assertThat(resync(limited, "catalog://products/4")).isEqualTo(resync(limited, "catalog://products/999999"))
			.contains("\"uri\":\"URI\"");
	}

	/**
	 * The resync a subscription's stream gets when it resumes from a position that is not
	 * its own.
	 */
	private String resync(McpTestClient client, String uri) throws Exception {
		String session = client.initialize();
		client.call(session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}");
		try (SseStream stream = client.openStream(session, "Last-Event-ID", "not-a-position")) {
			SseEvent resync = stream.nextMessage(WAIT);
			assertThat(resync).isNotNull();
			return normalized(resync.data(), uri);
		}
	}

	@Test
	void aSubscriptionToAHiddenUriNeverDeliversItsChanges() throws Exception {
		McpTestClient limited = client("limited");
		String session = limited.initialize();
		for (String uri : List.of("catalog://products/4", "catalog://products/3")) {
			limited.call(session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}");
		}
		try (SseStream stream = limited.openStream(session);
				SseStream listen = limited
					.listen("{\"resourceSubscriptions\":[\"catalog://products/4\",\"catalog://products/3\"]}")) {
			assertThat(json(listen.nextMessage(WAIT).data()).get("method").stringValue())
				.isEqualTo("notifications/subscriptions/acknowledged");
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/4"));
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/3"));
			// In order: had the change to 4 been delivered, it would have come first.
			assertThat(uriOf(stream.nextMessage(WAIT))).isEqualTo("catalog://products/3");
			assertThat(uriOf(listen.nextMessage(WAIT))).isEqualTo("catalog://products/3");
		}
	}

	private static String answer(McpTestClient client, String session, String method, String uri) throws Exception {
		HttpResponse<String> response = client.call(session, method, "{\"uri\":\"" + uri + "\"}");
		return response.statusCode() + " " + normalized(response.body(), uri);
	}

	private static String acknowledgement(McpTestClient client, String uri) throws Exception {
		try (SseStream stream = client.listen("{\"resourceSubscriptions\":[\"" + uri + "\"]}")) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			return normalized(stream.nextMessage(WAIT).data(), uri);
		}
	}

	/** The message with its URI and JSON-RPC ids replaced, which differ by design. */
	private static String normalized(String message, String uri) {
		return message.replace(uri, "URI")
			.replaceAll("\"(id|io.modelcontextprotocol/subscriptionId)\":\\d+", "\"$1\":0");
	}

	@Test
	void collectionTemplateAndPatternSubscriptionsNeverDeliverAForbiddenChild() throws Exception {
		McpTestClient limited = client("limited");
		String session = limited.initialize();
		for (String uri : List.of("catalog://products", "catalog://products/{id}", "catalog://products/?pattern=*")) {
			assertThat(json(limited.call(session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}").body())
				.get("result")).as(uri).isNotNull();
		}
		try (SseStream stream = limited.openStream(session)) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			// One notification per matching subscription (correlation), never one for 4
			// or 5.
			assertThat(deliveredInOrder(stream)).containsOnly("catalog://products/1", "catalog://products/2",
					"catalog://products/3");
		}
	}

	@Test
	void theRestrictedChildrenReachAClientAllowedToReadThem() throws Exception {
		McpTestClient full = client("full");
		String session = full.initialize();
		full.call(session, "resources/subscribe", "{\"uri\":\"catalog://products\"}");
		try (SseStream stream = full.openStream(session)) {
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/4"));
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/5"));
			assertThat(uriOf(stream.nextMessage(WAIT))).isEqualTo("catalog://products/4");
			assertThat(uriOf(stream.nextMessage(WAIT))).isEqualTo("catalog://products/5");
		}
	}

	@Test
	void listenStreamsLeaveOutRefusedUrisAndDeliverOnlyReadableChildren() throws Exception {
		McpTestClient limited = client("limited");
		try (SseStream stream = limited
			.listen("{\"resourceSubscriptions\":[\"catalog://products/{id}\",\"catalog://products/4\"]}")) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			JsonNode ack = json(stream.nextMessage(WAIT).data());
			assertThat(ack.get("method").stringValue()).isEqualTo("notifications/subscriptions/acknowledged");
			// Product 4 is hidden: its subscription is honoured as one to a URI that does
			// not
			// exist would be, and never delivers.
			assertThat(ack.get("params").get("notifications").get("resourceSubscriptions"))
				.extracting(JsonNode::stringValue)
				.containsExactly("catalog://products/{id}", "catalog://products/4");
			assertThat(deliveredInOrder(stream)).containsExactly("catalog://products/1", "catalog://products/2",
					"catalog://products/3");
		}
	}

	@Test
	void statelessReadsAndListsFollowTheRules() throws Exception {
		McpTestClient limited = client("limited");
		JsonNode refused = json(limited.stateless("resources/read", "\"uri\":\"catalog://products/5\"").body());
		assertThat(refused.get("error").get("code").intValue()).isEqualTo(-32602);
		JsonNode listed = json(limited.stateless("resources/list", "").body());
		assertThat(listed.get("result").get("resources").valueStream().map((r) -> r.get("uri").stringValue()))
			.containsExactly("catalog://products", "catalog://products/1");
	}

	@Test
	void runTimeDefinitionsStateTheirRule() throws Exception {
		McpTestClient limited = client("limited");
		String session = limited.initialize();
		assertThat(read(limited, session, "reports://limited").get("result")).isNotNull();
		assertThat(read(limited, session, "reports://full").get("error").get("code").intValue()).isEqualTo(-32002);
		limited.call(session, "resources/subscribe", "{\"uri\":\"reports://{team}\"}");
		try (SseStream stream = limited.openStream(session)) {
			this.events.publishEvent(new ResourceChangedEvent("reports://full"));
			this.events.publishEvent(new ResourceChangedEvent("reports://limited"));
			assertThat(uriOf(stream.nextMessage(WAIT))).isEqualTo("reports://limited");
		}
	}

	@Test
	void aSessionIsInvisibleToAnotherPrincipal() throws Exception {
		String session = client("full").initialize();
		assertThat(client("limited").call(session, "resources/list", null).statusCode()).isEqualTo(404);
	}

	/**
	 * Changes to allowed and forbidden children interleaved, then a last allowed one: the
	 * dispatcher and the outbox keep order, so receiving the last proves the forbidden
	 * ones before it were dropped.
	 */
	private List<String> deliveredInOrder(SseStream stream) throws Exception {
		for (int id : new int[] { 4, 1, 5, 2, 4 }) {
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/" + id));
		}
		this.events.publishEvent(new ResourceChangedEvent("catalog://products/3"));
		List<String> delivered = new ArrayList<>();
		while (!delivered.contains("catalog://products/3")) {
			SseEvent event = stream.nextMessage(WAIT);
			assertThat(event).as("a notification after " + delivered).isNotNull();
			delivered.add(uriOf(event));
		}
		return delivered;
	}

	private static String uriOf(SseEvent event) {
		assertThat(event).isNotNull();
		JsonNode message = json(event.data());
		assertThat(message.get("method").stringValue()).isEqualTo("notifications/resources/updated");
		return message.get("params").get("uri").stringValue();
	}

	private List<String> listAll(McpTestClient client) throws Exception {
		String session = client.initialize();
		List<String> uris = new ArrayList<>();
		String cursor = null;
		do {
			JsonNode result = json(
					client.call(session, "resources/list", (cursor != null) ? "{\"cursor\":\"" + cursor + "\"}" : "{}")
						.body())
				.get("result");
			JsonNode resources = result.get("resources");
			assertThat(resources.size()).isLessThanOrEqualTo(2);
			resources.forEach((resource) -> uris.add(resource.get("uri").stringValue()));
			cursor = (result.get("nextCursor") != null && !result.get("nextCursor").isNull())
					? result.get("nextCursor").stringValue() : null;
		}
		while (cursor != null);
		return uris;
	}

	private List<String> listTemplates(McpTestClient client) throws Exception {
		String session = client.initialize();
		List<String> templates = new ArrayList<>();
		String cursor = null;
		do {
			JsonNode result = json(client
				.call(session, "resources/templates/list", (cursor != null) ? "{\"cursor\":\"" + cursor + "\"}" : "{}")
				.body()).get("result");
			JsonNode page = result.get("resourceTemplates");
			assertThat(page.size()).isLessThanOrEqualTo(2);
			page.forEach((template) -> templates.add(template.get("uriTemplate").stringValue()));
			cursor = (result.get("nextCursor") != null && !result.get("nextCursor").isNull())
					? result.get("nextCursor").stringValue() : null;
		}
		while (cursor != null);
		return templates;
	}

	private static JsonNode read(McpTestClient client, String session, String uri) throws Exception {
		return json(client.call(session, "resources/read", "{\"uri\":\"" + uri + "\"}").body());
	}

	private McpTestClient client(String user) {
		String basic = Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
		return new McpTestClient(URI.create("http://localhost:" + this.port + "/mcp"), "Basic " + basic);
	}

	@Configuration(proxyBeanMethods = false)
	static class Catalog {

		@McpResource(uri = "catalog://products")
		@PreAuthorize("hasAuthority('SCOPE_catalog:read')")
		String products() {
			return "all";
		}

		@McpResource(uri = "catalog://products/{id}")
		// Products 4 and 5 are restricted; ids past 5 do not exist (and are not
		// restricted).
		@PreAuthorize("hasAuthority('SCOPE_catalog:read') and "
				+ "(#id < 4 or #id > 5 or hasAuthority('SCOPE_catalog:restricted'))")
		Optional<String> product(@UriVariable("id") long productId) {
			return (productId <= 5) ? Optional.of("product " + productId) : Optional.empty();
		}

		@McpResource(uri = "vault://secrets/{name}")
		@PreAuthorize("hasAuthority('SCOPE_catalog:restricted')")
		String secret(String name) {
			return "secret " + name;
		}

		@Bean
		ResourceCompleter names() {
			return (uriTemplate, variable, prefix, context) -> switch (uriTemplate) {
				case "vault://secrets/{name}" -> List.of("alpha", "beta");
				case "reports://{team}" -> List.of("full", "limited", "nobody");
				default -> null;
			};
		}

		@McpResourceInstances("catalog://products/{id}")
		List<ResourceInstance> productIds() {
			return IntStream.rangeClosed(1, 5).mapToObj((id) -> new ResourceInstance(Map.of("id", id))).toList();
		}

		@Bean
		InitializingBean reports(ResourceRegistry registry) {
			return () -> registry.register(ResourceDefinition
				.builder("reports://{team}", (request) -> "report of " + request.variables().get("team"))
				.accessRule("#team == authentication.name")
				.build());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebSecurity
	static class Security {

		@Bean
		SecurityFilterChain mcpSecurity(HttpSecurity http) {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.disable())
				.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
				.build();
		}

		@Bean
		UserDetailsService users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("full")
						.password("{noop}secret")
						.authorities("SCOPE_catalog:read", "SCOPE_catalog:restricted")
						.build(),
					User.withUsername("limited").password("{noop}secret").authorities("SCOPE_catalog:read").build(),
					User.withUsername("nobody").password("{noop}secret").authorities("SCOPE_other").build());
		}

	}

}
