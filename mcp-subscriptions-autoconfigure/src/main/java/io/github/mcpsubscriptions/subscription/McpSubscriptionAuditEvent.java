package io.github.mcpsubscriptions.subscription;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;

/**
 * Published when a client subscribes, unsubscribes or is refused, so that applications
 * can log or keep an audit trail.
 *
 * @since 0.1.0
 */
public class McpSubscriptionAuditEvent extends ApplicationEvent {

	private final Action action;

	private final String uri;

	private final String subscriberId;

	private final @Nullable Principal principal;

	private final @Nullable Reason reason;

	public McpSubscriptionAuditEvent(Object source, Action action, String uri, String subscriberId,
			@Nullable Principal principal, @Nullable Reason reason) {
		super(source);
		this.action = action;
		this.uri = uri;
		this.subscriberId = subscriberId;
		this.principal = principal;
		this.reason = reason;
	}

	public Action getAction() {
		return this.action;
	}

	public String getUri() {
		return this.uri;
	}

	/**
	 * The subscriber, as reports name it; never a session id.
	 * @return the subscriber id
	 */
	public String getSubscriberId() {
		return this.subscriberId;
	}

	public @Nullable Principal getPrincipal() {
		return this.principal;
	}

	/**
	 * Why a subscription was rejected.
	 * @return the reason, or {@code null} unless the action is {@link Action#REJECT}
	 */
	public @Nullable Reason getReason() {
		return this.reason;
	}

	/**
	 * What happened.
	 *
	 * @since 0.1.0
	 */
	public enum Action {

		/** A subscription was added (or confirmed). */
		SUBSCRIBE,

		/** A subscription was removed. */
		UNSUBSCRIBE,

		/** A subscription was refused. */
		REJECT

	}

	/**
	 * Why a subscription was refused.
	 *
	 * @since 0.1.0
	 */
	public enum Reason {

		/** Not a URI, or an invalid template or pattern. */
		INVALID,

		/** It covers no registered resource, or the access policy refused it. */
		NOT_FOUND,

		/** A subscription limit was reached. */
		LIMIT

	}

}
