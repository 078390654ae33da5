package io.github.mcpsubscriptions.events;

import java.net.http.HttpResponse;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.MutableClock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Events extension over a real port, by a client that knows nothing but the draft
 * (SEP-3415 of 2026-10-05): raw JSON-RPC posts of protocol 2026-07-28.
 */
@SpringBootTest(classes = { EventsTestApplication.class, EventsPollTests.Config.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "mcp.events.enabled=true",
				"mcp.events.retention-size=20", "mcp.events.poll-interval=7s", "mcp.events.max-events-per-poll=50" })
class EventsPollTests {

	private static final String PRODUCTS = "\"name\":\"catalog.product.changed\"";

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher publisher;

	@Autowired
	private MutableClock clock;

	private McpTestClient client;

	@BeforeEach
	void setUp() {
		this.client = new McpTestClient(this.port);
	}

	@Test
	void discoverAdvertisesTheExtensionWithListChanged() throws Exception {
		JsonNode capabilities = result(this.client.stateless("server/discover", "")).get("capabilities");
		JsonNode events = capabilities.get("extensions").get("io.modelcontextprotocol/events");
		assertThat(events.isObject()).isTrue();
		assertThat(events.get("listChanged").booleanValue()).as("types may come and go").isTrue();
	}

	@Test
	void listDescribesEveryTypeWithSchemasDerivedFromItsClasses() throws Exception {
		JsonNode result = result(this.client.stateless("events/list", ""));
		assertThat(result.get("resultType").stringValue()).isEqualTo("complete");
		assertThat(result.has("nextCursor")).isFalse();
		JsonNode products = descriptor(result, "catalog.product.changed");
		assertThat(products.get("description").stringValue()).isEqualTo("A product was created, updated or deleted");
		assertThat(products.get("delivery")).extracting(JsonNode::stringValue).containsExactly("poll");
		JsonNode input = products.get("inputSchema");
		assertThat(input.get("type").stringValue()).isEqualTo("object");
		assertThat(input.get("properties").get("id").get("type").stringValue()).isEqualTo("integer");
		assertThat(input.get("properties").get("minPrice").get("type").stringValue()).isEqualTo("number");
		assertThat(input.get("additionalProperties").booleanValue()).isFalse();
		assertThat(input.has("required")).as("both arguments are optional").isFalse();
		JsonNode payload = products.get("payloadSchema").get("properties");
		assertThat(payload.propertyNames()).containsExactly("id", "name", "price", "change");
		assertThat(payload.get("change").get("enum")).extracting(JsonNode::stringValue)
			.containsExactly("created", "updated", "deleted");
		assertThat(products.get("payloadSchema").get("required")).extracting(JsonNode::stringValue)
			.containsExactly("id", "price");
		JsonNode audit = descriptor(result, "test.audit");
		assertThat(audit.get("inputSchema").toString()).isEqualTo("{\"type\":\"object\"}");
		assertThat(audit.get("payloadSchema").get("properties").propertyNames()).containsExactly("action");
	}

	@Test
	void bootstrapReplaysNothingAndReturnsACursor() throws Exception {
		publish(1, 99);
		for (String cursor : new String[] { "", ",\"cursor\":null" }) {
			JsonNode result = poll("\"arguments\":{}" + cursor);
			assertThat(result.get("resultType").stringValue()).isEqualTo("complete");
			assertThat(result.get("events").isArray()).isTrue();
			assertThat(result.get("events").isEmpty()).isTrue();
			assertThat(result.get("cursor").isString()).isTrue();
			assertThat(result.get("truncated").booleanValue()).isFalse();
			assertThat(result.get("hasMore").booleanValue()).isFalse();
			assertThat(result.get("nextPollMs").longValue()).isEqualTo(7000);
		}
		// Without arguments at all, too.
		assertThat(poll("").get("events").isEmpty()).isTrue();
		// Mcp-Name is not defined for events/* by the draft: accepted when sent, never
		// required.
		assertThat(result(this.client.stateless("events/poll", PRODUCTS, "Mcp-Name", "catalog.product.changed"))
			.get("events")
			.isEmpty()).isTrue();
	}

	@Test
	void pollDeliversOnlyMatchingEventsInOrderAndResumesFromItsCursor() throws Exception {
		String cursor = poll("\"arguments\":{\"minPrice\":50}").get("cursor").stringValue();
		publish(1, 10);
		publish(2, 60);
		publish(3, 70);
		publish(4, 40);
		publish(5, 80);
		JsonNode result = poll("\"arguments\":{\"minPrice\":50},\"cursor\":\"" + cursor + "\"");
		assertThat(result.get("events")).extracting((event) -> event.get("data").get("id").longValue())
			.containsExactly(2L, 3L, 5L);
		JsonNode first = result.get("events").get(0);
		assertThat(first.propertyNames()).containsExactlyInAnyOrder("eventId", "name", "timestamp", "data");
		assertThat(first.get("name").stringValue()).isEqualTo("catalog.product.changed");
		assertThat(Instant.parse(first.get("timestamp").stringValue())).isNotNull();
		assertThat(first.get("data").toString())
			.isEqualTo("{\"id\":2,\"name\":\"product 2\",\"price\":60.0,\"change\":\"updated\"}");
		assertThat(result.get("events")).extracting((event) -> event.get("eventId").stringValue())
			.doesNotHaveDuplicates();
		assertThat(result.get("truncated").booleanValue()).isFalse();
		assertThat(result.get("hasMore").booleanValue()).isFalse();
		// The same cursor again: the same events, the same ids (stable for dedupe).
		JsonNode again = poll("\"arguments\":{\"minPrice\":50},\"cursor\":\"" + cursor + "\"");
		assertThat(again.get("events")).isEqualTo(result.get("events"));
		// Resume: nothing new, then only what came after.
		String next = result.get("cursor").stringValue();
		JsonNode quiet = poll("\"arguments\":{\"minPrice\":50},\"cursor\":\"" + next + "\"");
		assertThat(quiet.get("events").isEmpty()).isTrue();
		publish(6, 90);
		publish(7, 5);
		JsonNode later = poll(
				"\"arguments\":{\"minPrice\":50},\"cursor\":\"" + quiet.get("cursor").stringValue() + "\"");
		assertThat(later.get("events")).extracting((event) -> event.get("data").get("id").longValue())
			.containsExactly(6L);
		// Another subscription, by id, reads the same log its own way.
		JsonNode byId = poll("\"arguments\":{\"id\":4},\"cursor\":\"" + cursor + "\"");
		assertThat(byId.get("events")).extracting((event) -> event.get("data").get("price").doubleValue())
			.containsExactly(40.0);
	}

	@Test
	void maxEventsCutsABatchWithHasMore() throws Exception {
		String cursor = poll("\"arguments\":{}").get("cursor").stringValue();
		for (int i = 1; i <= 5; i++) {
			publish(i, 100);
		}
		JsonNode first = poll("\"cursor\":\"" + cursor + "\",\"maxEvents\":2");
		assertThat(ids(first)).containsExactly(1L, 2L);
		assertThat(first.get("hasMore").booleanValue()).isTrue();
		JsonNode second = poll("\"cursor\":\"" + first.get("cursor").stringValue() + "\",\"maxEvents\":2");
		assertThat(ids(second)).containsExactly(3L, 4L);
		assertThat(second.get("hasMore").booleanValue()).isTrue();
		JsonNode third = poll("\"cursor\":\"" + second.get("cursor").stringValue() + "\",\"maxEvents\":2");
		assertThat(ids(third)).containsExactly(5L);
		assertThat(third.get("hasMore").booleanValue()).isFalse();
		// A cap above the server's is clamped, never exceeded.
		JsonNode clamped = poll("\"cursor\":\"" + cursor + "\",\"maxEvents\":1000000");
		assertThat(ids(clamped)).containsExactly(1L, 2L, 3L, 4L, 5L);
	}

	@Test
	void cursorBehindTheRetainedLogIsTruncatedWithAFreshCursor() throws Exception {
		String cursor = poll("\"arguments\":{}").get("cursor").stringValue();
		for (int i = 1; i <= 25; i++) {
			publish(i, 100);
		}
		JsonNode result = poll("\"cursor\":\"" + cursor + "\"");
		assertThat(result.get("truncated").booleanValue()).isTrue();
		// What is still retained (the last 20) is delivered, never silence.
		assertThat(ids(result)).containsExactlyElementsOf(range(6, 25));
		JsonNode next = poll("\"cursor\":\"" + result.get("cursor").stringValue() + "\"");
		assertThat(next.get("truncated").booleanValue()).isFalse();
		assertThat(next.get("events").isEmpty()).isTrue();
	}

	@Test
	void cursorOfAnotherLifetimeOfTheLogIsTruncated() throws Exception {
		String foreign = new EventsWire.Cursor("0123456789abcdef", 3).encode();
		JsonNode result = poll("\"cursor\":\"" + foreign + "\"");
		assertThat(result.get("truncated").booleanValue()).isTrue();
		assertThat(result.get("cursor").stringValue()).isNotEqualTo(foreign);
		assertThat(poll("\"cursor\":\"" + result.get("cursor").stringValue() + "\"").get("truncated").booleanValue())
			.isFalse();
	}

	@Test
	void maxAgeMsFloorsTheReplayAndSaysSo() throws Exception {
		String cursor = poll("\"arguments\":{}").get("cursor").stringValue();
		publish(1, 100);
		this.clock.advance(Duration.ofMinutes(10));
		publish(2, 100);
		JsonNode floored = poll("\"cursor\":\"" + cursor + "\",\"maxAgeMs\":300000");
		assertThat(ids(floored)).containsExactly(2L);
		assertThat(floored.get("truncated").booleanValue()).isTrue();
		JsonNode whole = poll("\"cursor\":\"" + cursor + "\",\"maxAgeMs\":900000");
		assertThat(ids(whole)).containsExactly(1L, 2L);
		assertThat(whole.get("truncated").booleanValue()).isFalse();
		JsonNode bootstrap = poll("\"cursor\":null,\"maxAgeMs\":300000");
		assertThat(bootstrap.get("events").isEmpty()).as("ignored without a cursor").isTrue();
		assertThat(bootstrap.get("truncated").booleanValue()).isFalse();
	}

	@Test
	void eventsPublishedInATransactionAreRecordedAfterCommitAndNeverOnRollback() throws Exception {
		String cursor = poll("\"arguments\":{}").get("cursor").stringValue();
		TransactionTemplate transactions = new TransactionTemplate(new NoResourceTransactionManager());
		transactions.executeWithoutResult((status) -> {
			publish(1, 100);
			assertThat(ids(pollQuietly("\"cursor\":\"" + cursor + "\""))).as("not before commit").isEmpty();
		});
		transactions.executeWithoutResult((status) -> {
			publish(2, 100);
			status.setRollbackOnly();
		});
		assertThat(ids(poll("\"cursor\":\"" + cursor + "\""))).containsExactly(1L);
	}

	@Test
	void classicApplicationEventsCarryTheirPropertiesButNotTheirSource() throws Exception {
		String cursor = poll("\"name\":\"test.audit\"", "").get("cursor").stringValue();
		this.publisher.publishEvent(new AuditEvent(this, "deleted everything"));
		JsonNode result = poll("\"name\":\"test.audit\"", "\"cursor\":\"" + cursor + "\"");
		assertThat(result.get("events").get(0).get("data").toString()).isEqualTo("{\"action\":\"deleted everything\"}");
	}

	@Test
	void everyErrorIsTheDraftsWithItsData() throws Exception {
		JsonNode unknown = error(this.client.stateless("events/poll", "\"name\":\"no.such\""));
		assertThat(unknown.get("code").intValue()).isEqualTo(-32023);
		assertThat(unknown.get("message").stringValue()).isEqualTo("NotFound");
		assertThat(unknown.get("data").get("kind").stringValue()).isEqualTo("event");
		JsonNode forbidden = error(this.client.stateless("events/poll", PRODUCTS + ",\"arguments\":{\"id\":13}"));
		assertThat(forbidden.get("code").intValue()).isEqualTo(-32024);
		assertThat(forbidden.get("message").stringValue()).isEqualTo("Forbidden");
		JsonNode wrongType = error(
				this.client.stateless("events/poll", PRODUCTS + ",\"arguments\":{\"minPrice\":\"cheap\"}"));
		assertThat(wrongType.get("code").intValue()).isEqualTo(-32602);
		assertThat(wrongType.get("message").stringValue()).contains("$.minPrice");
		assertThat(wrongType.get("data").get("problems").isArray()).isTrue();
		JsonNode typo = error(this.client.stateless("events/poll", PRODUCTS + ",\"arguments\":{\"minPrize\":1}"));
		assertThat(typo.get("code").intValue()).isEqualTo(-32602);
		assertThat(typo.get("message").stringValue()).contains("minPrize");
		for (String params : new String[] { "\"arguments\":{}", PRODUCTS + ",\"arguments\":[]",
				PRODUCTS + ",\"cursor\":\"not-a-cursor\"", PRODUCTS + ",\"cursor\":17", PRODUCTS + ",\"maxEvents\":0",
				PRODUCTS + ",\"maxEvents\":1.5", PRODUCTS + ",\"maxAgeMs\":-1", "\"name\":7" }) {
			HttpResponse<String> response = this.client.stateless("events/poll", params);
			assertThat(response.statusCode()).as(params).isEqualTo(200);
			assertThat(error(response).get("code").intValue()).as(params).isEqualTo(-32602);
		}
		assertThat(error(this.client.stateless("events/list", "\"cursor\":\"nope\"")).get("code").intValue())
			.isEqualTo(-32602);
	}

	@Test
	void theExtensionIsNotDefinedForAnInitializedSession() throws Exception {
		String session = this.client.initialize("2025-11-25");
		for (String method : new String[] { "events/list", "events/poll" }) {
			JsonNode body = json(this.client.call(session, method, "{" + PRODUCTS + "}").body());
			assertThat(body.get("error").get("code").intValue()).isEqualTo(-32601);
		}
	}

	private void publish(long id, double price) {
		this.publisher.publishEvent(new ProductChanged(id, "product " + id, price, ProductChanged.Change.updated));
	}

	private JsonNode poll(String params) throws Exception {
		return poll(PRODUCTS, params);
	}

	private JsonNode poll(String name, String params) throws Exception {
		return result(this.client.stateless("events/poll", name + (params.isEmpty() ? "" : "," + params)));
	}

	private JsonNode pollQuietly(String params) {
		try {
			return poll(params);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static List<Long> ids(JsonNode result) {
		List<Long> ids = new ArrayList<>();
		result.get("events").forEach((event) -> ids.add(event.get("data").get("id").longValue()));
		return ids;
	}

	private static List<Long> range(long from, long to) {
		List<Long> range = new ArrayList<>();
		for (long i = from; i <= to; i++) {
			range.add(i);
		}
		return range;
	}

	private static JsonNode descriptor(JsonNode list, String name) {
		for (JsonNode event : list.get("events")) {
			if (event.get("name").stringValue().equals(name)) {
				return event;
			}
		}
		throw new AssertionError("No event type " + name + " in " + list);
	}

	private static JsonNode result(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode body = json(response.body());
		assertThat(body.has("error")).as(response.body()).isFalse();
		return body.get("result");
	}

	private static JsonNode error(HttpResponse<String> response) {
		JsonNode body = json(response.body());
		assertThat(body.has("result")).as(response.body()).isFalse();
		return body.get("error");
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		MutableClock eventsClock() {
			return new MutableClock(Instant.parse("2026-10-05T12:00:00Z"));
		}

		@Bean
		EventLog eventLog(MutableClock clock) {
			return new InMemoryEventLog(20, Duration.ofHours(1), clock);
		}

		@Bean
		McpEventAccessPolicy eventAccessPolicy() {
			return new McpEventAccessPolicy() {
				@Override
				public boolean canSubscribe(@Nullable Principal principal, String eventType,
						@Nullable Object arguments) {
					return !(arguments instanceof ProductFilter filter && Integer.valueOf(13).equals(filter.id()));
				}
			};
		}

	}

	/**
	 * A transaction manager with no resource: only Spring's synchronization, for real.
	 */
	static class NoResourceTransactionManager extends AbstractPlatformTransactionManager {

		@Override
		protected Object doGetTransaction() {
			return new Object();
		}

		@Override
		protected void doBegin(Object transaction, TransactionDefinition definition) {
		}

		@Override
		protected void doCommit(DefaultTransactionStatus status) {
		}

		@Override
		protected void doRollback(DefaultTransactionStatus status) {
		}

	}

}
