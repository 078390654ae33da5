package io.github.mcpsubscriptions.events;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import io.github.mcpsubscriptions.events.EventsWire.PollResult;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.server.McpExchange;
import io.github.mcpsubscriptions.test.MutableClock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Authorization at poll, per principal: one principal's polls never see the events the
 * policy hides from it, a hidden type is unknown, a refused subscription is
 * {@code Forbidden} on every poll; and a type that does not list poll is
 * {@code Unsupported}.
 */
class EventAuthorizationTests {

	private final JsonRpcCodec codec = new JsonRpcCodec();

	private final InMemoryEventLog log = new InMemoryEventLog(100, Duration.ofHours(1),
			new MutableClock(Instant.parse("2026-10-05T12:00:00Z")));

	private final EventTypeRegistry types = EventTypeRegistry.of(List.of(TenantNote.class, ProductChanged.class));

	private volatile boolean revoked;

	/**
	 * Notes only for their tenant; products hidden from "guest"; all refused once
	 * revoked.
	 */
	private final McpEventAccessPolicy policy = new McpEventAccessPolicy() {

		@Override
		public boolean canSee(@Nullable Principal principal, String eventType) {
			return !(eventType.equals("catalog.product.changed") && principal != null
					&& principal.getName().equals("guest"));
		}

		@Override
		public boolean canSubscribe(@Nullable Principal principal, String eventType, @Nullable Object arguments) {
			return !EventAuthorizationTests.this.revoked;
		}

		@Override
		public boolean canReceive(@Nullable Principal principal, String eventType, Object event) {
			return !(event instanceof TenantNote note)
					|| (principal != null && note.tenant().equals(principal.getName()));
		}

	};

	private final EventMethods methods = new EventMethods(this.types, this.log, this.policy, this.codec, 100,
			Duration.ofSeconds(5), 100, new EventStats());

	@Test
	void aPrincipalNeverSeesAnotherPrincipalsEvents() {
		String alice = poll("alice", "test.tenant", null).cursor();
		String bob = poll("bob", "test.tenant", null).cursor();
		record(new TenantNote("alice", "for alice"));
		record(new TenantNote("bob", "for bob"));
		record(new TenantNote("alice", "for alice again"));
		assertThat(poll("alice", "test.tenant", alice).events())
			.extracting((event) -> event.data().get("text").stringValue())
			.containsExactly("for alice", "for alice again");
		assertThat(poll("bob", "test.tenant", bob).events())
			.extracting((event) -> event.data().get("text").stringValue())
			.containsExactly("for bob");
		assertThat(poll(null, "test.tenant", alice).events()).as("anonymous").isEmpty();
	}

	@Test
	void aHiddenTypeIsNotListedAndUnknownToPolls() {
		assertThat(this.methods.list(exchange("guest"), null).events()).extracting(EventsWire.Descriptor::name)
			.containsExactly("test.tenant");
		assertThat(this.methods.list(exchange("alice"), null).events()).extracting(EventsWire.Descriptor::name)
			.containsExactly("test.tenant", "catalog.product.changed");
		assertThatExceptionOfType(JsonRpcException.class)
			.isThrownBy(() -> poll("guest", "catalog.product.changed", null))
			.satisfies((ex) -> assertThat(ex.getError().code()).isEqualTo(EventsWire.NOT_FOUND));
	}

	@Test
	void listPagesWithANextCursorThatNeverRepeats() {
		EventMethods paged = new EventMethods(this.types, this.log, this.policy, this.codec, 100, Duration.ofSeconds(5),
				1, new EventStats());
		EventsWire.ListResult first = paged.list(exchange("alice"), null);
		assertThat(first.events()).extracting(EventsWire.Descriptor::name).containsExactly("test.tenant");
		assertThat(first.nextCursor()).isNotNull();
		EventsWire.ListResult second = paged.list(exchange("alice"),
				this.codec.createObjectNode().put("cursor", first.nextCursor()));
		assertThat(second.events()).extracting(EventsWire.Descriptor::name).containsExactly("catalog.product.changed");
		assertThat(second.nextCursor()).isNull();
		// Paged after filtering: the guest sees one type, on one page.
		assertThat(paged.list(exchange("guest"), null).nextCursor()).isNull();
	}

	@Test
	void aRevokedSubscriptionIsForbiddenOnTheNextPoll() {
		String cursor = poll("alice", "test.tenant", null).cursor();
		this.revoked = true;
		assertThatExceptionOfType(JsonRpcException.class).isThrownBy(() -> poll("alice", "test.tenant", cursor))
			.satisfies((ex) -> assertThat(ex.getError().code()).isEqualTo(EventsWire.FORBIDDEN));
	}

	@Test
	void aTypeThatDoesNotListPollIsUnsupported() {
		EventType pushOnly = new EventType("test.push", "", List.of("push"), TenantNote.class, null,
				this.codec.createObjectNode().put("type", "object"), this.codec.createObjectNode(), Set.of());
		EventTypeRegistry registry = new EventTypeRegistry(List.of(pushOnly));
		EventMethods methods = new EventMethods(registry, this.log, this.policy, this.codec, 100, Duration.ofSeconds(5),
				100, new EventStats());
		assertThatExceptionOfType(JsonRpcException.class)
			.isThrownBy(() -> methods.poll(exchange("alice"), params("test.push", null)))
			.satisfies((ex) -> {
				assertThat(ex.getError().code()).isEqualTo(EventsWire.UNSUPPORTED);
				assertThat(this.codec.toTree(ex.getError().data()).toString())
					.isEqualTo("{\"feature\":\"deliveryMode\",\"value\":\"poll\"}");
			});
	}

	private void record(Object event) {
		EventType type = this.types.typeOf(event);
		this.log.append(type, event, EventRecorder.payload(type, event, this.codec));
	}

	private PollResult poll(@Nullable String principal, String name, @Nullable String cursor) {
		return this.methods.poll(exchange(principal), params(name, cursor));
	}

	private ObjectNode params(String name, @Nullable String cursor) {
		ObjectNode params = this.codec.createObjectNode().put("name", name);
		if (cursor != null) {
			params.put("cursor", cursor);
		}
		return params;
	}

	private static McpExchange exchange(@Nullable String principal) {
		return McpExchange.stateless((principal != null) ? () -> principal : null);
	}

	/**
	 * A note for one tenant.
	 *
	 * @param tenant who may receive it
	 * @param text what it says
	 */
	@McpEvent(name = "test.tenant")
	record TenantNote(String tenant, String text) {
	}

}
