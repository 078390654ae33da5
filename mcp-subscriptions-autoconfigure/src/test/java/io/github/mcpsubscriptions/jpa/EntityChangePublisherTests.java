package io.github.mcpsubscriptions.jpa;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.github.mcpsubscriptions.autoconfigure.McpJpaAutoConfiguration;
import io.github.mcpsubscriptions.notification.InMemoryResourceChangeFeed;
import io.github.mcpsubscriptions.notification.PublishedChangeFilter;
import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

/**
 * Entities mapped with {@link McpResourceEntity} publish their committed changes, on a
 * real PostgreSQL: one change per insert, update and delete with the right {@code change}
 * attribute, nothing on rollback, URIs filled from the identifier and from properties.
 */
@ExtendWith(OutputCaptureExtension.class)
class EntityChangePublisherTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpJpaAutoConfiguration.class))
		.withUserConfiguration(ShopJpa.class, Feed.class);

	@Test
	void insertUpdateAndDeleteEachPublishOneChangeAfterCommit() {
		this.runner.run((context) -> {
			List<ResourceChange> changes = recorded(context);
			Shop shop = new Shop(context);
			Long id = shop.inTransaction((em) -> em.persist(new ShopOrder("new")), ShopOrder.class);
			assertThat(changes).extracting(ResourceChange::uri, ResourceChange::attributes)
				.containsExactly(tuple("shop://orders/" + id, Map.of("change", "created")));
			changes.clear();
			shop.inTransaction((em) -> em.find(ShopOrder.class, id).setStatus("paid"));
			assertThat(changes).extracting(ResourceChange::uri, ResourceChange::attributes)
				.containsExactly(tuple("shop://orders/" + id, Map.of("change", "updated")));
			changes.clear();
			shop.inTransaction((em) -> em.remove(em.find(ShopOrder.class, id)));
			assertThat(changes).extracting(ResourceChange::uri, ResourceChange::attributes)
				.containsExactly(tuple("shop://orders/" + id, Map.of("change", "deleted")));
		});
	}

	@Test
	void aRolledBackTransactionPublishesNothingEvenAfterItsStatementsRan() {
		this.runner.run((context) -> {
			List<ResourceChange> changes = recorded(context);
			Shop shop = new Shop(context);
			Long id = shop.inTransaction((em) -> em.persist(new ShopOrder("new")), ShopOrder.class);
			changes.clear();
			shop.template.executeWithoutResult((status) -> {
				shop.em.persist(new ShopOrder("never"));
				shop.em.find(ShopOrder.class, id).setStatus("never");
				shop.em.flush();
				shop.em.remove(shop.em.find(ShopOrder.class, id));
				shop.em.flush();
				status.setRollbackOnly();
			});
			assertThat(changes).isEmpty();
			assertThat(shop.em.find(ShopOrder.class, id).getStatus()).as("the rollback happened").isEqualTo("new");
		});
	}

	@Test
	void theTemplateIsFilledFromPropertiesByNameAndAMoveIsADeleteAndACreate() {
		this.runner.run((context) -> {
			List<ResourceChange> changes = recorded(context);
			Shop shop = new Shop(context);
			Long id = shop.inTransaction((em) -> em.persist(new Customer("ada lovelace", "eu")), Customer.class);
			shop.inTransaction((em) -> em.find(Customer.class, id).setRegion(null));
			shop.inTransaction((em) -> em.find(Customer.class, id).setHandle("ada"));
			assertThat(changes).extracting(ResourceChange::uri, (change) -> change.attributes().get("change"))
				.containsExactly(tuple("shop://customers/ada%20lovelace?region=eu", "created"),
						tuple("shop://customers/ada%20lovelace?region=eu", "deleted"),
						tuple("shop://customers/ada%20lovelace", "created"),
						tuple("shop://customers/ada%20lovelace", "deleted"), tuple("shop://customers/ada", "created"));
		});
	}

	@Test
	void anEntityWhoseUriCannotBeBuiltPublishesNothingAndDoesNotFailTheCommit(CapturedOutput output) {
		this.runner.run((context) -> {
			List<ResourceChange> changes = recorded(context);
			Shop shop = new Shop(context);
			Long id = shop.inTransaction((em) -> em.persist(new Customer(null, "eu")), Customer.class);
			assertThat(changes).isEmpty();
			assertThat(shop.em.find(Customer.class, id)).as("committed all the same").isNotNull();
			assertThat(output).as("the lost change is not silent")
				.contains("WARN")
				.contains("A committed change of " + Customer.class.getName() + " " + id + " is not published");
		});
	}

	@Test
	void anEntityInheritsTheMappingOfItsSuperclass() {
		this.runner.run((context) -> {
			List<ResourceChange> changes = recorded(context);
			new Shop(context).inTransaction((em) -> em.persist(new Invoice("A-1")));
			assertThat(changes).extracting(ResourceChange::uri, (change) -> change.attributes().get("change"))
				.containsExactly(tuple("shop://documents/A-1", "created"));
		});
	}

	@Test
	void unmappedEntitiesPublishNothing() {
		this.runner.run((context) -> {
			List<ResourceChange> changes = recorded(context);
			new Shop(context).inTransaction((em) -> em.persist(new Unmapped("hello")));
			assertThat(changes).isEmpty();
		});
	}

	@Test
	void backsOffWhenDisabled() {
		this.runner.withPropertyValues("mcp.jpa.enabled=false").run((context) -> {
			List<ResourceChange> changes = recorded(context);
			new Shop(context).inTransaction((em) -> em.persist(new ShopOrder("new")));
			assertThat(changes).isEmpty();
			assertThat(context).doesNotHaveBean("mcpResourceEntityPostProcessor");
		});
	}

	@Test
	void backsOffWithoutAnEntityManagerFactoryOrAChangeFeed() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpJpaAutoConfiguration.class))
			.withUserConfiguration(Feed.class)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean("mcpResourceEntityPostProcessor"));
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpJpaAutoConfiguration.class))
			.withUserConfiguration(ShopJpa.class)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean("mcpResourceEntityPostProcessor"));
	}

	@Test
	void aMappingThatCannotBeFilledStopsTheStartUpNamingEveryProblem() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpJpaAutoConfiguration.class))
			.withUserConfiguration(BadJpa.class, Feed.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidResourceEntityException.class)
					.satisfies((ex) -> assertThat(((InvalidResourceEntityException) ex).getProblems()).satisfiesExactly(
							(problem) -> assertThat(problem).contains(AssociationVariable.class.getName(), "{order}",
									"names an association"),
							(problem) -> assertThat(problem).contains(MisnamedVariable.class.getName(), "{sku}",
									"names no identifier or persistent property",
									"identifier id and properties code")));
			});
	}

	@Test
	void aChangeThatAnotherSourcePublishesIsNotPublishedAgain() {
		// The database capture's filter declines the rows of the tables it captures.
		this.runner.withBean(PublishedChangeFilter.class, () -> (change) -> !change.uri().startsWith("shop://orders/"))
			.run((context) -> {
				List<ResourceChange> changes = recorded(context);
				Shop shop = new Shop(context);
				shop.inTransaction((em) -> em.persist(new ShopOrder("new")), ShopOrder.class);
				shop.inTransaction((em) -> em.persist(new Customer("ada", "eu")), Customer.class);
				assertThat(changes).extracting(ResourceChange::uri)
					.singleElement(as(STRING))
					.startsWith("shop://customers/");
			});
	}

	private static List<ResourceChange> recorded(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		List<ResourceChange> changes = new CopyOnWriteArrayList<>();
		context.getBean(ResourceChangeFeed.class).subscribe(changes::add);
		return changes;
	}

	/** Writes through JPA in transactions of its own. */
	static final class Shop {

		final TransactionTemplate template;

		final EntityManager em;

		Shop(AssertableApplicationContext context) {
			this.template = context.getBean(TransactionTemplate.class);
			this.em = SharedEntityManagerCreator.createSharedEntityManager(context.getBean(EntityManagerFactory.class));
		}

		void inTransaction(Consumer<EntityManager> work) {
			this.template.executeWithoutResult((status) -> work.accept(this.em));
		}

		<T> Long inTransaction(Consumer<EntityManager> work, Class<T> type) {
			return this.template.execute((status) -> {
				work.accept(this.em);
				this.em.flush();
				return (Long) this.em.createQuery("select max(e.id) from " + type.getSimpleName() + " e")
					.getSingleResult();
			});
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ShopJpa extends PostgresTestDatabase.JpaConfiguration {

		@Override
		protected List<Class<?>> entities() {
			return List.of(ShopOrder.class, Customer.class, Unmapped.class, Invoice.class);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadJpa extends PostgresTestDatabase.JpaConfiguration {

		@Override
		protected List<Class<?>> entities() {
			return List.of(ShopOrder.class, MisnamedVariable.class, AssociationVariable.class);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Feed {

		@Bean
		InMemoryResourceChangeFeed resourceChangeFeed() {
			return new InMemoryResourceChangeFeed();
		}

	}

}
