package io.github.mcpsubscriptions.jpa;

import java.time.Duration;
import java.util.List;

import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.transaction.support.TransactionTemplate;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A subscriber over a real port hears of the committed changes of a mapped entity in a
 * real PostgreSQL, with no event code in the application, and of nothing rolled back.
 */
@SpringBootTest(classes = { McpTestApplication.class, EntityChangesEndToEndTests.Shop.class },
		webEnvironment = WebEnvironment.RANDOM_PORT)
class EntityChangesEndToEndTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	@LocalServerPort
	private int port;

	@Autowired
	private TransactionTemplate transactions;

	@Autowired
	private EntityManagerFactory entityManagerFactory;

	@Test
	void aSubscriberHearsOfEachCommittedInsertUpdateAndDeleteOnceAndOfNoRollback() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		String session = client.initialize();
		JsonNode subscribed = json(
				client.call(session, "resources/subscribe", "{\"uri\":\"shop://orders/{id}\"}").body());
		assertThat(subscribed.has("error")).as("subscribe: %s", subscribed).isFalse();
		EntityManager em = SharedEntityManagerCreator.createSharedEntityManager(this.entityManagerFactory);
		try (SseStream stream = client.openStream(session)) {
			ShopOrder order = this.transactions.execute((status) -> {
				ShopOrder created = new ShopOrder("new");
				em.persist(created);
				return created;
			});
			String uri = "shop://orders/" + order.getId();
			assertNotified(stream, uri, "created");
			this.transactions
				.executeWithoutResult((status) -> em.find(ShopOrder.class, order.getId()).setStatus("paid"));
			assertNotified(stream, uri, "updated");
			this.transactions.executeWithoutResult((status) -> {
				em.find(ShopOrder.class, order.getId()).setStatus("refunded");
				em.flush();
				status.setRollbackOnly();
			});
			this.transactions.executeWithoutResult((status) -> em.remove(em.find(ShopOrder.class, order.getId())));
			assertNotified(stream, uri, "deleted");
			assertThat(stream.nextMessage(Duration.ofMillis(500))).as("once each, nothing for the rollback").isNull();
		}
	}

	private static void assertNotified(SseStream stream, String uri, String change) throws InterruptedException {
		SseEvent event = stream.nextMessage(WAIT);
		assertThat(event).as("a notification of %s %s", change, uri).isNotNull();
		JsonNode message = json(event.data());
		assertThat(message.get("method").stringValue()).isEqualTo("notifications/resources/updated");
		JsonNode params = message.get("params");
		assertThat(params.get("uri").stringValue()).isEqualTo(uri);
		assertThat(params.get("subscribedUri").stringValue()).isEqualTo("shop://orders/{id}");
		assertThat(params.get("_meta").get("change").stringValue()).isEqualTo(change);
	}

	@Configuration(proxyBeanMethods = false)
	@Import(ShopJpa.class)
	static class Shop {

		@Bean
		OrderResources orderResources() {
			return new OrderResources();
		}

	}

	static class ShopJpa extends PostgresTestDatabase.JpaConfiguration {

		@Override
		protected List<Class<?>> entities() {
			return List.of(ShopOrder.class);
		}

	}

	static class OrderResources {

		@McpResource(uri = "shop://orders/{id}")
		String order(String id) {
			return id;
		}

	}

}
