package io.github.mcpsubscriptions.events;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the class of a Spring application event as an MCP event type (the Events
 * extension, draft SEP-3415). Publishing an instance with the
 * {@link org.springframework.context.ApplicationEventPublisher} as usual records it,
 * after commit when published inside a transaction (and not at all on rollback). Its
 * payload ({@code data}) is the instance written as JSON, and its {@code payloadSchema}
 * is derived from the class: a record's components or a bean's properties.
 * <p>
 * Annotated classes are found in the application's auto-configuration packages, as
 * entities are. When {@link #arguments()} names a type, subscriptions carry arguments of
 * that type (its derived schema is the type's {@code inputSchema}) and the class must
 * implement {@link McpEventMatcher} of it, which decides per subscription whether an
 * event matches.
 *
 * @since 0.1.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface McpEvent {

	/**
	 * The event type's name, such as {@code catalog.product.changed}.
	 * @return the name
	 */
	String name();

	/**
	 * What the event type means, for clients and models.
	 * @return the description
	 */
	String description() default "";

	/**
	 * How the event type may be delivered: any of {@link Delivery#POLL},
	 * {@link Delivery#PUSH} and {@link Delivery#WEBHOOK}.
	 * @return the delivery modes
	 */
	Delivery[] delivery() default { Delivery.POLL };

	/**
	 * The type of the subscription arguments (a record or a bean), or {@code Void} for an
	 * event type without arguments.
	 * @return the arguments' type
	 */
	Class<?> arguments() default Void.class;

	/**
	 * A delivery mode of the Events extension.
	 */
	enum Delivery {

		/** {@code events/poll}. */
		POLL("poll"),

		/** {@code events/stream} (a stream that carries the events as they happen). */
		PUSH("push"),

		/** {@code events/subscribe} (signed webhooks). */
		WEBHOOK("webhook");

		private final String wireName;

		Delivery(String wireName) {
			this.wireName = wireName;
		}

		/**
		 * The mode's name on the wire.
		 * @return the name
		 */
		public String wireName() {
			return this.wireName;
		}

	}

}
