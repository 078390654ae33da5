package io.github.mcpsubscriptions;

import java.util.Set;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package rules of the library (CONTRIBUTING.md, "Style"): no package cycles, the
 * core never depends on an integration, integrations never depend on each other, and the
 * API users see never depends on the delivery engine's internals. The code keeps every
 * rule, so none has an allow-list: a change that must break one says so here, with a
 * {@code FreezingArchRule} and its committed store, rather than weakening the rule.
 */
class ArchitectureTests {

	private static final String ROOT = "io.github.mcpsubscriptions";

	/**
	 * The integrations: each is optional, and only the auto-configurations wire them in.
	 */
	private static final String[] INTEGRATIONS = { "cluster", "security", "capture", "jpa", "springai", "metrics",
			"aot" };

	/** The core: the protocol, the registries and the delivery engine. */
	private static final String[] CORE = { "jsonrpc", "transport", "session", "server", "notification", "subscription",
			"thread", "resource", "prompt", "tool" };

	/**
	 * The interfaces users implement (docs/extension-points.md), part of the API with the
	 * annotations and events.
	 */
	private static final Set<String> EXTENSION_INTERFACES = Set.of("notification.ResourceChangeFeed",
			"notification.PublishedChangeFilter", "notification.DeliveryScheduler", "notification.DispatchObserver",
			"subscription.ResourceAccessPolicy", "subscription.SubscriptionMatcher", "subscription.SubscriptionFilter",
			"tool.ToolAccessPolicy", "tool.ToolCallObserver", "prompt.PromptAccessPolicy", "prompt.PromptCompleter",
			"resource.ResourceCompleter", "resource.ResourceInstanceLister", "session.SessionIdGenerator",
			"session.SessionStore", "session.SessionListener", "session.CredentialExpiry", "server.McpRequestObserver",
			"capture.CapturedChangeAttributes", "capture.CaptureSink", "capture.CaptureDatabase",
			"capture.CaptureConnections");

	/**
	 * The delivery engine's internals, beside everything in {@code transport} and every
	 * type that is not public.
	 */
	private static final Set<String> ENGINE = Set.of("notification.NotificationEngine", "notification.EventLog",
			"notification.EncodedMessage", "notification.MessageStream", "notification.Subscriber",
			"notification.ExecutorDeliveryScheduler", "notification.NotificationStats", "session.McpSessionManager",
			"session.SessionEventLog", "session.SessionStreamHistory", "server.ListenManager",
			"server.McpRequestDispatcher", "subscription.SubscriptionIndex");

	/**
	 * The public types of {@code notification}: the API (the events, the change, the
	 * feeds and the extension interfaces), the engine's facade and what it is called with
	 * (a subscriber handle, the event log seam, the stream and its messages, the
	 * counters), and the default scheduler and feed the auto-configuration makes.
	 * Everything else of the engine (the dispatcher, the lanes, the outboxes, the
	 * encoder) is package-private: nothing outside it reaches in.
	 */
	private static final Set<String> PUBLIC_NOTIFICATION = Set.of("ResourceChangedEvent", "ResourceListChangedEvent",
			"ResourceChange", "ResourceChangeFeed", "InMemoryResourceChangeFeed", "FilteredResourceChangeFeed",
			"ResourceEventForwarder", "PublishedChangeFilter", "CorrelationMode", "DispatchObserver",
			"DeliveryScheduler", "ExecutorDeliveryScheduler", "NotificationEngine", "EventLog", "Subscriber",
			"MessageStream", "EncodedMessage", "NotificationStats");

	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages(ROOT);

	@Test
	void theRulesSeeTheLibrary() {
		// Rules over no classes would pass: check that the import found the library and
		// the engine.
		assertThat(CLASSES.containPackage(ROOT + ".notification")).isTrue();
		assertThat(CLASSES.that(engine())).hasSizeGreaterThan(ENGINE.size());
		assertThat(CLASSES.that(api())).hasSizeGreaterThan(EXTENSION_INTERFACES.size());
	}

	@Test
	void packagesAreFreeOfCycles() {
		SlicesRuleDefinition.slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(CLASSES);
	}

	@Test
	void theCoreNeverDependsOnAnIntegration() {
		ArchRule rule = ArchRuleDefinition.noClasses()
			.that()
			.resideInAnyPackage(packages(CORE))
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(packages(INTEGRATIONS));
		rule.check(CLASSES);
	}

	@Test
	void integrationsNeverDependOnEachOther() {
		SlicesRuleDefinition.slices()
			.matching(ROOT + ".(" + String.join("|", INTEGRATIONS) + ")..")
			.should()
			.notDependOnEachOther()
			.check(CLASSES);
	}

	@Test
	void theApiNeverDependsOnTheEngine() {
		ArchRule rule = ArchRuleDefinition.noClasses().that(api()).should().dependOnClassesThat(engine());
		rule.check(CLASSES);
	}

	@Test
	void onlyTheFacadeAndTheApiOfTheEngineArePublic() {
		ArchRule rule = ArchRuleDefinition.classes()
			.that()
			.resideInAPackage(ROOT + ".notification")
			.and()
			.areTopLevelClasses()
			.and()
			.arePublic()
			.should()
			.haveNameMatching(
					ROOT.replace(".", "\\.") + "\\.notification\\.(" + String.join("|", PUBLIC_NOTIFICATION) + ")");
		rule.check(CLASSES);
	}

	@Test
	void nothingOutsideTheEngineReachesIntoIt() {
		// Pins the one-way path of a notification: session, server, cluster, metrics,
		// capture and the auto-configurations see the facade, never an outbox, a lane or
		// the encoder, even if one were made public again.
		ArchRule rule = ArchRuleDefinition.noClasses()
			.that()
			.resideOutsideOfPackage(ROOT + ".notification")
			.should()
			.dependOnClassesThat(DescribedPredicate.describe("are the engine behind the facade",
					(type) -> type.getPackageName().equals(ROOT + ".notification")
							&& !PUBLIC_NOTIFICATION.contains(topLevel(type.getBaseComponentType()).getSimpleName())));
		rule.check(CLASSES);
	}

	@Test
	void theEngineNeverDependsOnItsCallers() {
		// The event log seam is the engine's: sessions and the cluster implement it, the
		// engine never imports them.
		ArchRule rule = ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage(ROOT + ".notification")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(
					packages("session", "server", "transport", "cluster", "metrics", "capture", "autoconfigure"));
		rule.check(CLASSES);
	}

	private static String[] packages(String... names) {
		String[] packages = new String[names.length];
		for (int i = 0; i < names.length; i++) {
			packages[i] = ROOT + "." + names[i] + "..";
		}
		return packages;
	}

	private static String relativeName(JavaClass type) {
		return type.getName().substring(ROOT.length() + 1);
	}

	private static DescribedPredicate<JavaClass> api() {
		return DescribedPredicate.describe("are the API (annotations, events, extension interfaces)",
				(type) -> type.getName().startsWith(ROOT + ".") && !type.isNestedClass()
						&& (type.isAnnotation() || type.isAssignableTo(ApplicationEvent.class)
								|| EXTENSION_INTERFACES.contains(relativeName(type))));
	}

	private static DescribedPredicate<JavaClass> engine() {
		// A nested or anonymous class is judged by its top-level class: an API type's own
		// are the API's.
		return DescribedPredicate.describe("are the delivery engine's internals", (type) -> {
			JavaClass top = topLevel(type.getBaseComponentType());
			return top.getName().startsWith(ROOT + ".") && (top.getPackageName().startsWith(ROOT + ".transport")
					|| !top.getModifiers().contains(JavaModifier.PUBLIC) || ENGINE.contains(relativeName(top)));
		});
	}

	private static JavaClass topLevel(JavaClass type) {
		JavaClass top = type;
		while (top.getEnclosingClass().isPresent()) {
			top = top.getEnclosingClass().get();
		}
		return top;
	}

}
