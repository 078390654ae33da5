package io.github.mcpsubscriptions.notification;

import java.security.Principal;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Someone notifications go to: a 2025-era session or a 2026-era listen stream. Identity
 * is by object: each subscriber is one live registration on this node.
 *
 * @since 0.1.0
 */
public final class Subscriber {

	private final String id;

	private final boolean listChanges;

	private final Map<String, Object> meta;

	/** The keys of {@link #meta}, which the encoder checks for every notification. */
	private final String[] metaKeys;

	/**
	 * Whether {@link #meta} has entries: asked for every notification, by the dispatcher
	 * too.
	 */
	private final boolean ownMeta;

	private volatile @Nullable Principal principal;

	private volatile @Nullable Outbox outbox;

	private volatile boolean correlationDeclared;

	/** The {@code _meta} entries as JSON and its bytes, built once by the encoder. */
	private volatile EncodedMessage.@Nullable Part encodedMeta;

	private volatile boolean toolListChanges;

	private volatile boolean promptListChanges;

	/** The methods of the extensions' list changes it asked for. */
	private volatile Set<String> extensionListChanges = Set.of();

	/**
	 * How many subscriptions it has, as the dispatcher counts them: only a subscriber
	 * with more than one can be matched twice by a change.
	 */
	private volatile int subscriptions;

	/**
	 * How many subscriptions it has ended: a notification decided before one ended is
	 * checked again before it is queued.
	 */
	private volatile int unsubscribed;

	/** The lane its notifications are queued on, given when it registers. */
	private volatile @Nullable DeliveryLane lane;

	/**
	 * The dispatcher's own bookkeeping while it fans a change out, on its thread only:
	 * the change this subscriber was last seen in, and its place in that change's list
	 * (or {@code -1} once it has been told).
	 */
	long dispatchMark;

	int dispatchSlot;

	Subscriber(String id, @Nullable Principal principal, boolean listChanges, Map<String, Object> meta) {
		this.id = id;
		this.principal = principal;
		this.listChanges = listChanges;
		this.toolListChanges = listChanges;
		this.promptListChanges = listChanges;
		this.meta = Map.copyOf(meta);
		this.metaKeys = this.meta.keySet().toArray(new String[0]);
		this.ownMeta = this.metaKeys.length > 0;
	}

	/**
	 * An id for logs and reports; never a session id.
	 * @return the id
	 */
	public String getId() {
		return this.id;
	}

	/**
	 * The principal the access policy and filters see.
	 * @return the principal, or {@code null}
	 */
	public @Nullable Principal getPrincipal() {
		return this.principal;
	}

	/**
	 * Update the principal, as of the latest request.
	 * @param principal the principal
	 */
	public void setPrincipal(@Nullable Principal principal) {
		this.principal = principal;
	}

	/**
	 * Whether the subscriber is told when the resource list changes.
	 * @return whether it gets {@code list_changed}
	 */
	public boolean isListChanges() {
		return this.listChanges;
	}

	/**
	 * Whether the subscriber is told when the tool list changes; by default, as for
	 * resources.
	 * @return whether it gets {@code notifications/tools/list_changed}
	 */
	public boolean isToolListChanges() {
		return this.toolListChanges;
	}

	/**
	 * Set whether the subscriber is told when the tool list changes.
	 * @param toolListChanges whether it is
	 */
	public void setToolListChanges(boolean toolListChanges) {
		this.toolListChanges = toolListChanges;
	}

	/**
	 * Whether the subscriber is told when the prompt list changes; by default, as for
	 * resources.
	 * @return whether it gets {@code notifications/prompts/list_changed}
	 */
	public boolean isPromptListChanges() {
		return this.promptListChanges;
	}

	/**
	 * Set whether the subscriber is told when the prompt list changes.
	 * @param promptListChanges whether it is
	 */
	public void setPromptListChanges(boolean promptListChanges) {
		this.promptListChanges = promptListChanges;
	}

	/**
	 * Whether the subscriber is told when an extension's list changes; by default not.
	 * @param method the notification's method
	 * @return whether it gets that notification
	 */
	public boolean isExtensionListChanges(String method) {
		return this.extensionListChanges.contains(method);
	}

	/**
	 * Set which extensions' list changes the subscriber is told of.
	 * @param methods the notifications' methods
	 */
	public void setExtensionListChanges(Set<String> methods) {
		this.extensionListChanges = Set.copyOf(methods);
	}

	/**
	 * Entries added to the {@code _meta} of every notification (the 2026 subscription
	 * id).
	 * @return the entries
	 */
	public Map<String, Object> getMeta() {
		return this.meta;
	}

	int getSubscriptions() {
		return this.subscriptions;
	}

	/** Called by the dispatcher as subscriptions are added and removed. */
	synchronized void addSubscriptions(int delta) {
		this.subscriptions += delta;
		if (delta < 0) {
			this.unsubscribed++;
		}
	}

	int getUnsubscribed() {
		return this.unsubscribed;
	}

	DeliveryLane getLane() {
		DeliveryLane current = this.lane;
		if (current == null) {
			throw new IllegalStateException("Subscriber " + this.id + " has no delivery lane yet");
		}
		return current;
	}

	void setLane(DeliveryLane lane) {
		this.lane = lane;
	}

	boolean hasOwnMeta() {
		return this.ownMeta;
	}

	String[] getMetaKeys() {
		return this.metaKeys;
	}

	/**
	 * Whether the subscriber's client declared {@link CorrelationMode#CAPABILITY}.
	 * @return whether it understands {@code subscribedUri}
	 */
	public boolean isCorrelationDeclared() {
		return this.correlationDeclared;
	}

	/**
	 * Record whether the client declared {@link CorrelationMode#CAPABILITY}; set before
	 * the subscriber's first subscription.
	 * @param declared whether it did
	 */
	public void setCorrelationDeclared(boolean declared) {
		this.correlationDeclared = declared;
	}

	Outbox getOutbox() {
		Outbox current = this.outbox;
		if (current == null) {
			throw new IllegalStateException("Subscriber " + this.id + " has no outbox yet");
		}
		return current;
	}

	EncodedMessage.@Nullable Part getEncodedMeta() {
		return this.encodedMeta;
	}

	void setEncodedMeta(EncodedMessage.Part encodedMeta) {
		this.encodedMeta = encodedMeta;
	}

	void setOutbox(Outbox outbox) {
		this.outbox = outbox;
	}

	@Override
	public String toString() {
		return "Subscriber[" + this.id + "]";
	}

}
