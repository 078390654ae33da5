package io.github.mcpsubscriptions.notification;

import java.security.Principal;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a resync names for exact, prefix, template and pattern subscriptions: only
 * concrete resources the subscriber may read, never a template or a glob.
 */
class ResyncTargetsTests {

	private static final Principal LIMITED = () -> "limited";

	private final ResourceRegistry registry = new ResourceRegistry();

	/** The limited principal may read neither the collection nor product 4. */
	private final ResourceAccessPolicy policy = new ResourceAccessPolicy() {

		@Override
		public boolean canRead(@Nullable Principal principal, String uri) {
			return principal != LIMITED || !(uri.equals("catalog://products") || uri.equals("catalog://products/4"));
		}

	};

	private final ResyncTargets targets = new ResyncTargets(this.registry, this.policy);

	ResyncTargetsTests() {
		this.registry.register(ResourceDefinition.builder("catalog://products", (request) -> "all").build());
		this.registry.register(ResourceDefinition.builder("catalog://products/{id}", (request) -> "one")
			.instanceLister(() -> IntStream.rangeClosed(1, 5).boxed().toList())
			.build());
		this.registry.register(ResourceDefinition.builder("file:///logs/", (request) -> "listing").build());
		this.registry.register(ResourceDefinition.builder("file:///logs/{+path}", (request) -> "file").build());
		this.registry.register(ResourceDefinition.builder("notes://inbox/a.md", (request) -> "a").build());
		this.registry.register(ResourceDefinition.builder("notes://inbox/b.txt", (request) -> "b").build());
		this.registry.register(ResourceDefinition.builder("weather://city/{name}", (request) -> "sunny")
			.instanceLister(() -> List.of("oslo", "lima"))
			.build());
		this.registry.register(ResourceDefinition.builder("reports://{team}", (request) -> "report").build());
	}

	@Test
	void anExactSubscriptionNamesItself() {
		assertThat(this.targets.of("catalog://products/3", null)).containsExactly("catalog://products/3");
		assertThat(this.targets.of("file:///logs/app/today.log", null)).containsExactly("file:///logs/app/today.log");
	}

	@Test
	void aCollectionOrDirectorySubscriptionNamesItself() {
		assertThat(this.targets.of("catalog://products", null)).containsExactly("catalog://products");
		assertThat(this.targets.of("file:///logs/", null)).containsExactly("file:///logs/");
	}

	@Test
	void aTemplateSubscriptionNamesItsNearestCollection() {
		assertThat(this.targets.of("catalog://products/{id}", null)).containsExactly("catalog://products");
		assertThat(this.targets.of("file:///logs/app/{name}.log", null)).containsExactly("file:///logs/");
	}

	@Test
	void aPatternSubscriptionNamesTheDirectoryItFilters() {
		assertThat(this.targets.of("file:///logs/?pattern=*.log", null)).containsExactly("file:///logs/");
		assertThat(this.targets.of("file:///logs?pattern=**/*.log", null)).containsExactly("file:///logs/");
	}

	@Test
	void withoutACollectionTheCoveredInstancesAreNamed() {
		assertThat(this.targets.of("weather://city/{name}", null)).containsExactly("weather://city/oslo",
				"weather://city/lima");
		assertThat(this.targets.of("notes://inbox/?pattern=*.md", null)).containsExactly("notes://inbox/a.md");
	}

	@Test
	void aCollectionTheSubscriberMayNotReadGivesWayToTheInstancesItMayRead() {
		assertThat(this.targets.of("catalog://products/{id}", LIMITED)).containsExactly("catalog://products/1",
				"catalog://products/2", "catalog://products/3", "catalog://products/5");
		assertThat(this.targets.of("catalog://products", LIMITED)).containsExactly("catalog://products/1",
				"catalog://products/2", "catalog://products/3", "catalog://products/5");
	}

	@Test
	void anExactSubscriptionTheSubscriberMayNotReadNamesItselfAsOneThatDoesNotExist() {
		// Its template is listed to the subscriber: whether product 4 is hidden from it
		// or
		// does not exist, the resync must not tell.
		assertThat(this.targets.of("catalog://products/4", null)).containsExactly("catalog://products/4");
		assertThat(this.targets.of("catalog://products/4", LIMITED)).containsExactly("catalog://products/4");
		assertThat(this.targets.of("catalog://products/999999", LIMITED)).containsExactly("catalog://products/999999");
	}

	@Test
	void nothingConcreteToReadNamesNothingAndTheResyncBecomesAListChanged() {
		assertThat(this.targets.of("reports://{team}", null)).isEmpty();
		OutboundNotification marker = OutboundNotification.resync("reports://{team}", Instant.EPOCH);
		assertThat(OutboundNotification.resyncs(marker, List.of())).singleElement().satisfies((resync) -> {
			assertThat(resync.method()).isEqualTo(OutboundNotification.LIST_CHANGED);
			assertThat(resync.uri()).isNull();
			assertThat(resync.subscribedUri()).isEqualTo("reports://{team}");
			assertThat(resync.resync()).isTrue();
		});
	}

	@Test
	void everyNamedResourceKeepsTheSubscriptionAndTheMarker() {
		OutboundNotification marker = OutboundNotification.resync("catalog://products/{id}", Instant.EPOCH);
		assertThat(OutboundNotification.resyncs(marker, this.targets.of("catalog://products/{id}", LIMITED))).hasSize(4)
			.allSatisfy((resync) -> {
				assertThat(resync.method()).isEqualTo(OutboundNotification.RESOURCE_UPDATED);
				assertThat(resync.uri()).doesNotContain("{");
				assertThat(resync.subscribedUri()).isEqualTo("catalog://products/{id}");
				assertThat(resync.resync()).isTrue();
			});
	}

}
