package io.github.mcpsubscriptions.events;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.GenericTypeResolver;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * The declared event types, by name and by event class: those found at start-up, and
 * those {@link #register registered} and {@link #unregister unregistered} at run time,
 * which the {@link Listener}s are told of (they send
 * {@code notifications/events/list_changed} and end the subscriptions of a removed type).
 */
final class EventTypeRegistry {

	private static final Log logger = LogFactory.getLog(EventTypeRegistry.class);

	/** The modes this implementation serves. */
	static final Set<McpEvent.Delivery> SERVED = Set.of(McpEvent.Delivery.POLL, McpEvent.Delivery.PUSH,
			McpEvent.Delivery.WEBHOOK);

	/**
	 * The types as of the latest change: replaced whole, so that readers take no lock.
	 */
	private volatile Types current;

	private final List<Listener> listeners = new CopyOnWriteArrayList<>();

	private static final Object NONE = new Object();

	EventTypeRegistry(Collection<EventType> types) {
		Map<String, EventType> byName = new LinkedHashMap<>();
		for (EventType type : types) {
			EventType previous = byName.putIfAbsent(type.name(), type);
			if (previous != null) {
				throw duplicate(type, previous);
			}
		}
		this.current = new Types(byName);
	}

	private static IllegalStateException duplicate(EventType type, EventType previous) {
		return new IllegalStateException("The MCP event type '" + type.name() + "' is declared twice, on "
				+ previous.eventClass().getName() + " and on " + type.eventClass().getName());
	}

	/**
	 * Add an event type at run time; the listeners are told.
	 * @param type the type
	 * @throws IllegalStateException if a type of that name is registered already
	 */
	void register(EventType type) {
		synchronized (this) {
			EventType previous = this.current.byName.get(type.name());
			if (previous != null) {
				throw duplicate(type, previous);
			}
			Map<String, EventType> copy = new LinkedHashMap<>(this.current.byName);
			copy.put(type.name(), type);
			this.current = new Types(copy);
		}
		changed(type, false);
	}

	/**
	 * Remove an event type at run time; the listeners are told.
	 * @param name its name
	 * @return whether there was one
	 */
	boolean unregister(String name) {
		EventType removed;
		synchronized (this) {
			Map<String, EventType> copy = new LinkedHashMap<>(this.current.byName);
			removed = copy.remove(name);
			if (removed == null) {
				return false;
			}
			this.current = new Types(copy);
		}
		changed(removed, true);
		return true;
	}

	/**
	 * Tell a listener of every change from now on.
	 * @param listener the listener
	 */
	void addListener(Listener listener) {
		this.listeners.add(listener);
	}

	private void changed(EventType type, boolean removed) {
		for (Listener listener : this.listeners) {
			try {
				listener.changed(type, removed);
			}
			catch (RuntimeException ex) {
				logger.warn("Event type registry listener " + listener + " failed", ex);
			}
		}
	}

	/**
	 * Told when an event type is added or removed at run time.
	 */
	@FunctionalInterface
	interface Listener {

		/**
		 * An event type was added or removed.
		 * @param type the type
		 * @param removed whether it was removed
		 */
		void changed(EventType type, boolean removed);

	}

	/** One version of the set of types, with the hot path's cache of its own. */
	private static final class Types {

		private final Map<String, EventType> byName;

		private final Map<Class<?>, EventType> byClass = new LinkedHashMap<>();

		/** Which event type, if any, each published class is. */
		private final Map<Class<?>, Object> lookups = new ConcurrentHashMap<>();

		Types(Map<String, EventType> byName) {
			this.byName = byName;
			for (EventType type : byName.values()) {
				this.byClass.put(type.eventClass(), type);
			}
		}

	}

	/**
	 * The registry of event classes.
	 * @param eventClasses classes annotated with {@link McpEvent}
	 * @return the registry
	 */
	static EventTypeRegistry of(Collection<Class<?>> eventClasses) {
		return new EventTypeRegistry(eventClasses.stream().map(EventTypeRegistry::describe).toList());
	}

	/**
	 * Find the classes annotated with {@link McpEvent} in packages.
	 * @param packages the packages
	 * @param classLoader loads the classes
	 * @return the registry
	 */
	static EventTypeRegistry scan(List<String> packages, @Nullable ClassLoader classLoader) {
		ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
		scanner.addIncludeFilter(new AnnotationTypeFilter(McpEvent.class));
		List<Class<?>> classes = new ArrayList<>();
		for (String basePackage : packages) {
			for (BeanDefinition candidate : scanner.findCandidateComponents(basePackage)) {
				classes.add(ClassUtils.resolveClassName(candidate.getBeanClassName(), classLoader));
			}
		}
		return of(classes);
	}

	static EventType describe(Class<?> eventClass) {
		McpEvent event = MergedAnnotations.from(eventClass).get(McpEvent.class).synthesize();
		String where = "The MCP event type '" + event.name() + "' (" + eventClass.getName() + ")";
		if (event.name().isBlank()) {
			throw new IllegalStateException("The MCP event type of " + eventClass.getName() + " has no name");
		}
		List<String> delivery = new ArrayList<>();
		for (McpEvent.Delivery mode : event.delivery()) {
			if (SERVED.contains(mode) && !delivery.contains(mode.wireName())) {
				delivery.add(mode.wireName());
			}
			else if (!SERVED.contains(mode)) {
				logger.info(where + " declares delivery " + mode.wireName()
						+ ", which is not served yet and so not advertised");
			}
		}
		if (delivery.isEmpty()) {
			throw new IllegalStateException(where + " declares no delivery mode that is served; served: poll, webhook");
		}
		Class<?> arguments = (event.arguments() == Void.class) ? null : event.arguments();
		if (arguments != null) {
			if (!McpEventMatcher.class.isAssignableFrom(eventClass)) {
				throw new IllegalStateException(where + " has arguments of " + arguments.getName()
						+ " but does not implement McpEventMatcher<" + arguments.getSimpleName() + ">");
			}
			Class<?> matched = GenericTypeResolver.resolveTypeArgument(eventClass, McpEventMatcher.class);
			if (matched != null && !matched.isAssignableFrom(arguments)) {
				throw new IllegalStateException(
						where + " has arguments of " + arguments.getName() + " but matches " + matched.getName());
			}
		}
		return new EventType(event.name(), event.description(), List.copyOf(delivery), eventClass, arguments,
				(arguments != null) ? TypeSchemas.objectSchema(arguments, true)
						: JsonNodeFactory.instance.objectNode().put("type", "object"),
				TypeSchemas.objectSchema(eventClass, false), TypeSchemas.propertyNames(eventClass));
	}

	/**
	 * This registry with one more type.
	 * @param type the type
	 * @return a registry of both
	 */
	EventTypeRegistry with(EventType type) {
		List<EventType> all = new ArrayList<>(this.current.byName.values());
		all.add(type);
		return new EventTypeRegistry(all);
	}

	@Nullable EventType get(String name) {
		return this.current.byName.get(name);
	}

	Collection<EventType> all() {
		return this.current.byName.values();
	}

	/**
	 * The event type a published object is, if any: its class's, or the nearest
	 * superclass's.
	 * @param event the published object
	 * @return the type, or {@code null}
	 */
	@Nullable EventType typeOf(Object event) {
		Types types = this.current;
		Object found = types.lookups.computeIfAbsent(event.getClass(), (type) -> {
			for (Class<?> candidate = type; candidate != null; candidate = candidate.getSuperclass()) {
				EventType declared = types.byClass.get(candidate);
				if (declared != null) {
					return declared;
				}
			}
			return NONE;
		});
		return (found instanceof EventType type) ? type : null;
	}

}
