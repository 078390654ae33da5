package io.github.mcpsubscriptions.events;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.PayloadApplicationEvent;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;

/**
 * Records the application's {@link McpEvent} events in the log: after commit when
 * published inside a transaction, dropped on rollback, at once otherwise, as resource
 * changes are. Recording only appends: the publisher never waits for a client.
 */
final class EventRecorder implements ApplicationListener<ApplicationEvent> {

	private static final Log logger = LogFactory.getLog(EventRecorder.class);

	/** Whether Spring's transactions are on the class path (spring-tx is optional). */
	private static final boolean TRANSACTIONS = ClassUtils.isPresent(
			"org.springframework.transaction.support.TransactionSynchronizationManager",
			EventRecorder.class.getClassLoader());

	private final EventTypeRegistry types;

	private final EventLog log;

	private final JsonRpcCodec codec;

	private final EventStats stats;

	EventRecorder(EventTypeRegistry types, EventLog log, JsonRpcCodec codec, EventStats stats) {
		this.types = types;
		this.log = log;
		this.codec = codec;
		this.stats = stats;
	}

	@Override
	public void onApplicationEvent(ApplicationEvent published) {
		Object event = (published instanceof PayloadApplicationEvent<?> payload) ? payload.getPayload() : published;
		EventType type = this.types.typeOf(event);
		if (type == null) {
			return;
		}
		if (!TRANSACTIONS || !AfterCommit.defer(() -> record(type, event))) {
			record(type, event);
		}
	}

	private void record(EventType type, Object event) {
		JsonNode data;
		try {
			data = payload(type, event, this.codec);
		}
		catch (RuntimeException ex) {
			// The publisher's transaction has committed: report, never throw into it.
			logger.error("The MCP event " + type.name() + " could not be written as JSON and was not recorded", ex);
			return;
		}
		try {
			this.log.append(type, event, data);
			this.stats.recorded(type.name());
		}
		catch (RuntimeException ex) {
			// A shared log's store may be down: the publisher's work is done, so report.
			logger.error("The MCP event " + type.name() + " could not be recorded in the event log", ex);
		}
	}

	/**
	 * The {@code data} of an event: what it is written as, or for an
	 * {@link ApplicationEvent} only the members its payload schema describes (never its
	 * source, which may be anything).
	 * @param type the event's type
	 * @param payload the event, or what a transform made of it
	 * @param codec writes it
	 * @return the payload
	 * @throws IllegalArgumentException if it is not written as a JSON object
	 */
	static JsonNode payload(EventType type, Object payload, JsonRpcCodec codec) {
		Object written = payload;
		if (payload instanceof ApplicationEvent) {
			BeanWrapper bean = new BeanWrapperImpl(payload);
			Map<String, @Nullable Object> members = new LinkedHashMap<>();
			for (String property : type.payloadProperties()) {
				members.put(property, bean.getPropertyValue(property));
			}
			written = members;
		}
		JsonNode tree = codec.toTree(written);
		if (!(tree instanceof ObjectNode)) {
			throw new IllegalArgumentException("The payload of MCP event " + type.name() + " is not a JSON object");
		}
		return tree;
	}

	/** Kept apart so that the recorder loads without spring-tx. */
	private static final class AfterCommit {

		/**
		 * Run an action after the current transaction commits, if there is one.
		 * @param action the action
		 * @return whether it was deferred; {@code false} outside a transaction
		 */
		static boolean defer(Runnable action) {
			if (!TransactionSynchronizationManager.isSynchronizationActive()
					|| !TransactionSynchronizationManager.isActualTransactionActive()) {
				return false;
			}
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					action.run();
				}
			});
			return true;
		}

	}

}
