package io.github.mcpsubscriptions.events;

import java.net.http.HttpResponse;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.TestUsers;
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

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code resource.updated}: every resource change as an event, its {@code uri} argument
 * matched as a resource subscription is (exact, collection, template, glob), its payload
 * the params of {@code notifications/resources/updated}, authorized as resource reads.
 */
@SpringBootTest(classes = { EventsTestApplication.class, TestUsers.class, ResourceUpdatedEventsTests.Config.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = "mcp.events.enabled=true")
class ResourceUpdatedEventsTests {

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher publisher;

	private McpTestClient client;

	@BeforeEach
	void setUp() {
		this.client = new McpTestClient(this.port);
	}

	@Test
	void listDescribesResourceUpdated() throws Exception {
		JsonNode list = result(this.client.stateless("events/list", ""));
		JsonNode type = null;
		for (JsonNode descriptor : list.get("events")) {
			if (descriptor.get("name").stringValue().equals("resource.updated")) {
				type = descriptor;
			}
		}
		assertThat(type).as(list.toString()).isNotNull();
		assertThat(type.get("inputSchema").get("required")).extracting(JsonNode::stringValue).containsExactly("uri");
		assertThat(type.get("payloadSchema").get("properties").propertyNames()).containsExactly("uri", "subscribedUri",
				"_meta");
	}

	@Test
	void theUriArgumentMatchesAsAResourceSubscriptionDoes() throws Exception {
		String exact = cursor("c://items/1");
		String collection = cursor("c://items");
		String template = cursor("c://items/{id}");
		String glob = cursor("c://items?pattern=*2");
		this.publisher.publishEvent(new ResourceChangedEvent("c://items/1", Map.of("change", "updated")));
		this.publisher.publishEvent(new ResourceChangedEvent("c://items/2"));
		this.publisher.publishEvent(new ResourceChangedEvent("c://other/3"));

		JsonNode exactly = poll("c://items/1", exact);
		assertThat(uris(exactly)).containsExactly("c://items/1");
		assertThat(exactly.get("events").get(0).get("name").stringValue()).isEqualTo("resource.updated");
		assertThat(exactly.get("events").get(0).get("data").toString()).isEqualTo(
				"{\"uri\":\"c://items/1\",\"subscribedUri\":\"c://items/1\",\"_meta\":{\"change\":\"updated\"}}");
		assertThat(uris(poll("c://items", collection))).containsExactly("c://items/1", "c://items/2");
		JsonNode templated = poll("c://items/{id}", template);
		assertThat(uris(templated)).containsExactly("c://items/1", "c://items/2");
		assertThat(templated.get("events").get(1).get("data").toString()).as("no _meta for a change without attributes")
			.isEqualTo("{\"uri\":\"c://items/2\",\"subscribedUri\":\"c://items/{id}\"}");
		assertThat(uris(poll("c://items?pattern=*2", glob))).containsExactly("c://items/2");
	}

	@Test
	void aUriResourcesSubscribeRefusesIsInvalidParams() throws Exception {
		HttpResponse<String> response = this.client.stateless("events/poll",
				"\"name\":\"resource.updated\",\"arguments\":{\"uri\":\"c://items/{a}{b}\"}");
		JsonNode error = json(response.body()).get("error");
		assertThat(error.get("code").intValue()).as(response.body()).isEqualTo(-32602);
		HttpResponse<String> missing = this.client.stateless("events/poll",
				"\"name\":\"resource.updated\",\"arguments\":{}");
		assertThat(json(missing.body()).get("error").get("code").intValue()).isEqualTo(-32602);
	}

	@Test
	void changesAreAuthorizedAsResourceReadsAtEveryPoll() throws Exception {
		HttpResponse<String> refused = this.client.stateless("events/poll",
				"\"name\":\"resource.updated\",\"arguments\":{\"uri\":\"c://secret\"}", "X-Test-User", "bob");
		assertThat(json(refused.body()).get("error").get("message").stringValue()).isEqualTo("Forbidden");
		String cursor = result(this.client.stateless("events/poll",
				"\"name\":\"resource.updated\",\"arguments\":{\"uri\":\"c://items\"}", "X-Test-User", "bob"))
			.get("cursor")
			.stringValue();
		this.publisher.publishEvent(new ResourceChangedEvent("c://items/hidden"));
		this.publisher.publishEvent(new ResourceChangedEvent("c://items/4"));
		JsonNode bob = result(this.client.stateless("events/poll",
				"\"name\":\"resource.updated\",\"arguments\":{\"uri\":\"c://items\"},\"cursor\":\"" + cursor + "\"",
				"X-Test-User", "bob"));
		assertThat(uris(bob)).containsExactly("c://items/4");
		assertThat(uris(poll("c://items", cursor))).as("another caller may read it")
			.containsExactly("c://items/hidden", "c://items/4");
	}

	private String cursor(String uri) throws Exception {
		return result(this.client.stateless("events/poll",
				"\"name\":\"resource.updated\",\"arguments\":{\"uri\":" + json("\"" + uri + "\"") + "}"))
			.get("cursor")
			.stringValue();
	}

	private JsonNode poll(String uri, String cursor) throws Exception {
		return result(this.client.stateless("events/poll",
				"\"name\":\"resource.updated\",\"arguments\":{\"uri\":\"" + uri + "\"},\"cursor\":\"" + cursor + "\""));
	}

	private static List<String> uris(JsonNode result) {
		List<String> uris = new ArrayList<>();
		result.get("events").forEach((event) -> uris.add(event.get("data").get("uri").stringValue()));
		return uris;
	}

	private static JsonNode result(HttpResponse<String> response) {
		JsonNode body = json(response.body());
		assertThat(body.has("result")).as(response.body()).isTrue();
		return body.get("result");
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		/** bob may not subscribe to c://secret, nor read c://items/hidden. */
		@Bean
		ResourceAccessPolicy resourceAccessPolicy() {
			return new ResourceAccessPolicy() {
				@Override
				public boolean canSubscribe(@Nullable Principal principal, String uri) {
					return principal == null || !principal.getName().equals("bob")
							|| !(uri.equals("c://secret") || uri.equals("c://items/hidden"));
				}
			};
		}

	}

}
