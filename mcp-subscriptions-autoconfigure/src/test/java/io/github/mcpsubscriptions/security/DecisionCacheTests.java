package io.github.mcpsubscriptions.security;

import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.context.support.StaticApplicationContext;
import org.springframework.security.access.expression.method.DefaultMethodSecurityExpressionHandler;
import org.springframework.security.authentication.TestingAuthenticationToken;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions at delivery are kept for a bounded time, per authentication (by identity),
 * rule and URI variables; reads are always evaluated afresh.
 */
class DecisionCacheTests {

	private final AtomicLong now = new AtomicLong();

	private final AtomicInteger evaluations = new AtomicInteger();

	@Test
	void keepsADecisionForItsTimeThenEvaluatesAgain() {
		DecisionCache cache = new DecisionCache(Duration.ofSeconds(10), 100, this.now::get);
		assertThat(cache.decide("key", this::evaluate)).isTrue();
		this.now.addAndGet(Duration.ofSeconds(9).toNanos());
		assertThat(cache.decide("key", this::evaluate)).isTrue();
		assertThat(this.evaluations).hasValue(1);
		this.now.addAndGet(Duration.ofSeconds(1).toNanos());
		cache.decide("key", this::evaluate);
		assertThat(this.evaluations).hasValue(2);
	}

	@Test
	void zeroTimeEvaluatesEveryTime() {
		DecisionCache cache = new DecisionCache(Duration.ZERO, 100, this.now::get);
		cache.decide("key", this::evaluate);
		cache.decide("key", this::evaluate);
		assertThat(this.evaluations).hasValue(2);
		assertThat(cache.size()).isZero();
	}

	@Test
	void staysWithinItsSize() {
		DecisionCache cache = new DecisionCache(Duration.ofMinutes(1), 3, this.now::get);
		for (int i = 0; i < 10; i++) {
			cache.decide("key" + i, this::evaluate);
			assertThat(cache.size()).isLessThanOrEqualTo(3);
		}
	}

	@Test
	void deliveriesAreCachedPerAuthenticationRuleAndVariablesButReadsAreNot() {
		AtomicInteger checks = new AtomicInteger();
		ResourceRegistry registry = new ResourceRegistry();
		registry.register(ResourceDefinition.builder("orders://{tenant}/{id}", (request) -> "order")
			.accessRule("@checks.count() and #tenant == authentication.name")
			.build());
		DefaultMethodSecurityExpressionHandler handler = new DefaultMethodSecurityExpressionHandler();
		StaticApplicationContext context = new StaticApplicationContext();
		context.getBeanFactory().registerSingleton("checks", new Checks(checks));
		context.refresh();
		handler.setApplicationContext(context);
		ResourceRuleAccessPolicy policy = new ResourceRuleAccessPolicy(registry, handler,
				new DecisionCache(Duration.ofSeconds(10), 100, this.now::get));
		Principal acme = new TestingAuthenticationToken("acme", null, List.of());
		assertThat(policy.canReceive(acme, "orders://acme/1", "orders://acme/{id}")).isTrue();
		assertThat(policy.canReceive(acme, "orders://acme/1", "orders://{tenant}/{id}")).isTrue();
		assertThat(checks).as("same authentication, rule and variables").hasValue(1);
		assertThat(policy.canReceive(acme, "orders://acme/2", "orders://acme/{id}")).isTrue();
		assertThat(policy.canReceive(acme, "orders://other/1", "orders://{tenant}/{id}")).isFalse();
		assertThat(checks).hasValue(3);
		Principal renewed = new TestingAuthenticationToken("acme", null, List.of());
		policy.canReceive(renewed, "orders://acme/1", "orders://acme/{id}");
		assertThat(checks).as("a new token is a new decision").hasValue(4);
		policy.canRead(acme, "orders://acme/1");
		policy.canRead(acme, "orders://acme/1");
		assertThat(checks).as("reads are evaluated afresh").hasValue(6);
	}

	private boolean evaluate() {
		this.evaluations.incrementAndGet();
		return true;
	}

	/** Counts how often a rule is evaluated. */
	public record Checks(AtomicInteger counter) {

		public boolean count() {
			this.counter.incrementAndGet();
			return true;
		}

	}

}
