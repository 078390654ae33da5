package io.github.mcpsubscriptions.session;

import java.io.IOException;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;

import io.github.mcpsubscriptions.notification.CorrelationMode;
import io.github.mcpsubscriptions.notification.EventLog;
import io.github.mcpsubscriptions.notification.MessageStream;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.Subscriber;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.context.SmartLifecycle;

/**
 * Creates, finds and ends 2025-era sessions, keeps their node-local GET streams alive,
 * and expires idle sessions.
 * <p>
 * A session is idle when it has no open stream on this node and has had no request for
 * longer than the idle timeout. Every path that ends a session tells the
 * {@link SessionListener}s, so that nothing the session held outlives it.
 *
 * @since 0.1.0
 */
public class McpSessionManager implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(McpSessionManager.class);

	private static final Duration MIN_SWEEP_INTERVAL = Duration.ofMillis(100);

	private static final Duration MAX_SWEEP_INTERVAL = Duration.ofSeconds(30);

	private final SessionStore store;

	private final SessionIdGenerator idGenerator;

	private final Clock clock;

	private final Duration idleTimeout;

	private final int maxSessions;

	private final int maxSessionsPerPrincipal;

	private final int replayLogSize;

	private final Duration writeTimeout;

	private final @Nullable Duration retry;

	private final List<SessionListener> listeners;

	private final ConcurrentMap<String, MessageStream> streams = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, Subscriber> subscribers = new ConcurrentHashMap<>();

	private final NotificationEngine engine;

	private final @Nullable SessionStreamHistory history;

	private final AtomicLong subscriberIds = new AtomicLong();

	private final Object createLock = new Object();

	private volatile @Nullable MaintenanceExecutor scheduler;

	private volatile CredentialExpiry credentialExpiry = CredentialExpiry.NONE;

	/** The ends scheduled for streams whose credential expires. */
	private final ConcurrentMap<MessageStream, ScheduledFuture<?>> expiries = new ConcurrentHashMap<>();

	/**
	 * Create a new manager.
	 * @param store where session state lives
	 * @param idGenerator creates session ids
	 * @param clock the clock for idle expiry and write timeouts
	 * @param settings limits and intervals
	 * @param listeners told when sessions end
	 * @param engine queues notifications for the sessions
	 */
	public McpSessionManager(SessionStore store, SessionIdGenerator idGenerator, Clock clock, Settings settings,
			List<SessionListener> listeners, NotificationEngine engine) {
		this(store, idGenerator, clock, settings, listeners, engine, null);
	}

	/**
	 * Create a new manager whose streams work on any node of a cluster.
	 * @param store where session state lives
	 * @param idGenerator creates session ids
	 * @param clock the clock for idle expiry and write timeouts
	 * @param settings limits and intervals
	 * @param listeners told when sessions end
	 * @param engine queues notifications for the sessions
	 * @param history event ids and replay shared by the nodes, or {@code null} for a
	 * replay log per session on this node
	 */
	public McpSessionManager(SessionStore store, SessionIdGenerator idGenerator, Clock clock, Settings settings,
			List<SessionListener> listeners, NotificationEngine engine, @Nullable SessionStreamHistory history) {
		this.history = history;
		this.store = store;
		this.idGenerator = idGenerator;
		this.clock = clock;
		this.idleTimeout = settings.idleTimeout();
		this.maxSessions = settings.maxSessions();
		this.maxSessionsPerPrincipal = settings.maxSessionsPerPrincipal();
		this.replayLogSize = settings.replayLogSize();
		this.writeTimeout = settings.writeTimeout();
		this.retry = settings.retry();
		this.listeners = List.copyOf(listeners);
		this.engine = engine;
	}

	/**
	 * The settings of a {@link McpSessionManager}.
	 *
	 * @param idleTimeout how long a session without requests or an open stream lives
	 * @param maxSessions the most sessions at once
	 * @param replayLogSize how many messages of a stream are kept for replay
	 * @param writeTimeout how long a write may block before the stream is given up
	 * @param retry the reconnection delay sent before the server ends a client's stream
	 * (never in priming events), or {@code null} to send none
	 * @param maxSessionsPerPrincipal the most sessions of one authenticated principal at
	 * once; zero for no limit
	 * @since 0.1.0
	 */
	public record Settings(Duration idleTimeout, int maxSessions, int replayLogSize, Duration writeTimeout,
			@Nullable Duration retry, int maxSessionsPerPrincipal) {

		public Settings(Duration idleTimeout, int maxSessions, int replayLogSize, Duration writeTimeout,
				@Nullable Duration retry) {
			this(idleTimeout, maxSessions, replayLogSize, writeTimeout, retry, 0);
		}

		public Settings {
			if (maxSessionsPerPrincipal < 0) {
				throw new IllegalArgumentException(
						"The session limit per principal must be 0 (none) or more, was " + maxSessionsPerPrincipal);
			}
			if (idleTimeout.isNegative() || idleTimeout.isZero()) {
				throw new IllegalArgumentException("The idle timeout must be positive, was " + idleTimeout);
			}
			if (maxSessions < 1) {
				throw new IllegalArgumentException("The session limit must be at least 1, was " + maxSessions);
			}
			if (replayLogSize < 1) {
				throw new IllegalArgumentException("The replay log size must be at least 1, was " + replayLogSize);
			}
			if (writeTimeout.isNegative() || writeTimeout.isZero()) {
				throw new IllegalArgumentException("The write timeout must be positive, was " + writeTimeout);
			}
		}

	}

	/**
	 * Create and store a new session.
	 * @param protocolVersion the negotiated protocol version
	 * @param clientInfo the client's {@code clientInfo}
	 * @param clientCapabilities the client's {@code capabilities}
	 * @param principal the authenticated principal, or {@code null}
	 * @return the new session
	 * @throws SessionLimitExceededException when the session limit, or the principal's,
	 * is reached
	 */
	public McpSession create(String protocolVersion, JsonNode clientInfo, JsonNode clientCapabilities,
			@Nullable Principal principal) {
		McpSession session;
		synchronized (this.createLock) {
			if (this.store.count() >= this.maxSessions) {
				throw new SessionLimitExceededException(this.maxSessions);
			}
			// Anonymous sessions have no one to count them by: the server-wide limit
			// bounds them.
			if (this.maxSessionsPerPrincipal > 0 && principal != null
					&& this.store.countByPrincipal(principal.getName()) >= this.maxSessionsPerPrincipal) {
				throw new SessionLimitExceededException(SessionLimitExceededException.MAX_PER_PRINCIPAL,
						this.maxSessionsPerPrincipal);
			}
			session = new McpSession(this.idGenerator.generateId(), protocolVersion, clientInfo, clientCapabilities,
					(principal != null) ? principal.getName() : null, this.clock.instant(), this.replayLogSize);
			this.store.save(session);
		}
		if (!isShared()) {
			// Shared sessions get a subscriber only where their stream opens.
			getSubscriber(session).setPrincipal(principal);
		}
		return session;
	}

	/**
	 * The session's subscriber on this node: its subscriptions and outbox.
	 * @param session the session
	 * @return the subscriber
	 */
	public Subscriber getSubscriber(McpSession session) {
		Subscriber subscriber = this.subscribers.computeIfAbsent(session.getId(), (id) -> {
			Subscriber created = this.engine.register("session-" + this.subscriberIds.incrementAndGet(), null, true,
					Map.of(), eventLog(session));
			created.setCorrelationDeclared(CorrelationMode.isDeclaredIn(session.getClientCapabilities()));
			return created;
		});
		// end() removes the session before its subscriber: if the session is gone now,
		// either
		// end() saw this subscriber or it is ours to remove.
		if (this.store.find(session.getId()) == null && this.subscribers.remove(session.getId(), subscriber)) {
			this.engine.unregister(subscriber);
		}
		return subscriber;
	}

	/**
	 * The last link of the session's writer chain, which the engine builds once: on one
	 * node the session's own replay log, in a cluster the shared history. Either way
	 * every message gets its event id and is recorded before it is written, so that if
	 * the write fails, a reconnect with {@code Last-Event-ID} still gets it.
	 */
	private EventLog eventLog(McpSession session) {
		SessionStreamHistory shared = this.history;
		if (shared == null) {
			return session.getEventLog();
		}
		return (stream, position, message) -> {
			if (!stream.isOpen()) {
				throw new IOException("The stream is closed");
			}
			try {
				String eventId = shared.append(session, position);
				if (eventId != null) {
					stream.send(eventId, message);
				}
			}
			catch (IOException ex) {
				logger.debug("A session's stream failed; the message waits in the shared log", ex);
			}
		};
	}

	/**
	 * Find a session for a request and mark it used.
	 * @param id the session id from the request
	 * @param principalName the request's authenticated principal, or {@code null}
	 * @return the session, or {@code null} if there is none with that id for that
	 * principal
	 */
	public @Nullable McpSession find(String id, @Nullable String principalName) {
		McpSession session = this.store.find(id);
		if (session == null || !Objects.equals(session.getPrincipalName(), principalName)) {
			// Another principal's session is reported as absent: ids are not to be
			// probed.
			return null;
		}
		touch(session);
		return session;
	}

	/**
	 * Save a changed session, unless it has ended meanwhile.
	 * @param session the session
	 */
	public void save(McpSession session) {
		this.store.replace(session);
	}

	private void touch(McpSession session) {
		session.setLastAccessedAt(this.clock.instant());
		this.store.replace(session);
	}

	/**
	 * End a session: remove it, close its stream and tell the listeners.
	 * @param id the session id
	 * @param reason why it ends
	 * @return whether there was such a session
	 */
	public boolean end(String id, SessionEndReason reason) {
		McpSession session = this.store.remove(id);
		release(id);
		if (session == null) {
			return false;
		}
		for (SessionListener listener : this.listeners) {
			try {
				listener.sessionEnded(session, reason);
			}
			catch (RuntimeException ex) {
				logger.warn("Session listener " + listener + " failed", ex);
			}
		}
		return true;
	}

	/**
	 * Let go of what this node holds for a session, without ending it: its stream
	 * (closed) and its subscriber. For a session that ended elsewhere, or whose stream
	 * another node took over.
	 * @param id the session id
	 */
	public void release(String id) {
		MessageStream stream = this.streams.remove(id);
		if (stream != null) {
			// Its client has nothing to come back for here: no retry field.
			stream.closeForGood();
		}
		Subscriber subscriber = this.subscribers.remove(id);
		if (subscriber != null) {
			this.engine.unregister(subscriber);
		}
	}

	/**
	 * Whether sessions are shared with other nodes, which then may hold their streams.
	 * @return whether the store is shared
	 */
	public boolean isShared() {
		return this.store.isShared();
	}

	/**
	 * The store of the sessions' durable state.
	 * @return the store
	 */
	public SessionStore getStore() {
		return this.store;
	}

	/**
	 * The session's subscriber, if this node holds one.
	 * @param sessionId the session id
	 * @return the subscriber or {@code null}
	 */
	public @Nullable Subscriber findSubscriber(String sessionId) {
		return this.subscribers.get(sessionId);
	}

	/**
	 * Set when the credentials streams are opened with expire; by default never.
	 * @param credentialExpiry the expiry
	 */
	public void setCredentialExpiry(CredentialExpiry credentialExpiry) {
		this.credentialExpiry = credentialExpiry;
	}

	/**
	 * Make a stream the session's GET stream, closing the one it replaces.
	 * @param session the session
	 * @param stream the new stream
	 */
	public void attachStream(McpSession session, MessageStream stream) {
		attachStream(session, stream, null);
	}

	/**
	 * Make a stream the session's GET stream, closing the one it replaces. Clients of
	 * 2025-11-25 or later first get a priming event; a client that sends
	 * {@code Last-Event-ID} then gets exactly the messages that followed it, or, if they
	 * are no longer in the replay log (or the id is not this session's), a resync
	 * notification for each of its subscriptions. Live notifications follow.
	 * @param session the session
	 * @param stream the new stream
	 * @param lastEventId the client's {@code Last-Event-ID}, or {@code null}
	 */
	public void attachStream(McpSession session, MessageStream stream, @Nullable String lastEventId) {
		MessageStream previous = this.streams.put(session.getId(), stream);
		if (previous != null && previous != stream) {
			previous.closeForGood();
		}
		if (this.store.find(session.getId()) == null) {
			// The session ended while the stream was being opened.
			this.streams.remove(session.getId(), stream);
			stream.closeForGood();
			return;
		}
		endAtExpiry(session, stream);
		if (this.history != null) {
			Subscriber subscriber = getSubscriber(session);
			NotificationEngine.AttachAction action;
			try {
				action = this.history.attach(session, subscriber, lastEventId);
			}
			catch (RuntimeException ex) {
				release(session.getId());
				throw ex;
			}
			this.engine.attach(subscriber, stream, action);
			return;
		}
		this.engine.attach(getSubscriber(session), stream, (target, attachment) -> {
			SessionEventLog log = session.getEventLog();
			List<SessionEventLog.Event> replay = (lastEventId != null) ? log.after(lastEventId) : List.of();
			if (ProtocolVersions.supportsPriming(session.getProtocolVersion())) {
				target.prime(log.primingId((replay != null) ? lastEventId : null));
			}
			if (replay == null) {
				// A gap replay cannot fill: never silent.
				attachment.queueResync();
				return;
			}
			if (lastEventId != null) {
				attachment.countReplay();
			}
			// Written as the client takes it, under the same budget as live delivery.
			Iterator<SessionEventLog.Event> events = replay.iterator();
			attachment.replay(target, (replayTarget, self) -> {
				if (!events.hasNext()) {
					return false;
				}
				SessionEventLog.Event event = events.next();
				replayTarget.send(event.id(), event.data());
				return true;
			});
		});
	}

	/**
	 * Close a stream when the credential that opened it expires (the subscriber's
	 * principal, which the stream's request set): closed by the server, a resumable
	 * stream sends its {@code retry}, and the client resumes with a fresh credential.
	 */
	private void endAtExpiry(McpSession session, MessageStream stream) {
		Subscriber subscriber = this.subscribers.get(session.getId());
		Principal principal = (subscriber != null) ? subscriber.getPrincipal() : null;
		Instant expiresAt = (principal != null) ? this.credentialExpiry.expiresAt(principal) : null;
		MaintenanceExecutor executor = this.scheduler;
		if (expiresAt == null || executor == null) {
			return;
		}
		try {
			this.expiries.put(stream, executor.schedule(Duration.between(this.clock.instant(), expiresAt), () -> {
				this.expiries.remove(stream);
				stream.close();
			}));
		}
		catch (RejectedExecutionException ex) {
			// Stopping: every stream is being closed anyway.
			return;
		}
		if (!stream.isOpen()) {
			// Closed meanwhile, perhaps before its end was scheduled.
			cancelExpiry(stream);
		}
	}

	private void cancelExpiry(MessageStream stream) {
		ScheduledFuture<?> end = this.expiries.remove(stream);
		if (end != null) {
			end.cancel(false);
		}
	}

	/**
	 * The SSE {@code retry} to send before the server itself closes a session's stream
	 * (shutdown, a slow consumer), so that the client resumes after that delay: for
	 * clients of 2025-11-25 or later, which understand the field, when
	 * {@code mcp.sessions.retry} is on.
	 * @param session the session
	 * @return the delay, or {@code null} for none
	 */
	public @Nullable Duration getCloseRetry(McpSession session) {
		return ProtocolVersions.supportsPriming(session.getProtocolVersion()) ? this.retry : null;
	}

	/**
	 * A stream closed (by the client, an error or the server). The session's idle time
	 * counts from now.
	 * @param sessionId the session id
	 * @param stream the stream that closed
	 */
	public void streamClosed(String sessionId, MessageStream stream) {
		cancelExpiry(stream);
		Subscriber subscriber = this.subscribers.get(sessionId);
		if (subscriber != null) {
			this.engine.detach(subscriber, stream);
		}
		if (this.streams.remove(sessionId, stream)) {
			try {
				McpSession session = this.store.find(sessionId);
				if (session != null) {
					touch(session);
					if (this.history != null) {
						this.history.detached(session);
					}
				}
			}
			catch (StoreUnavailableException ex) {
				// The stream is released all the same; whoever found it closed (a
				// delivery
				// thread, the container's listener) has nothing to do about a store
				// outage.
				logger.warn(ex.getMessage() + "; the session's idle time counts from its last request");
			}
		}
	}

	/**
	 * The session's open GET stream on this node.
	 * @param sessionId the session id
	 * @return the stream or {@code null}
	 */
	public @Nullable MessageStream getStream(String sessionId) {
		return this.streams.get(sessionId);
	}

	/**
	 * All sessions.
	 * @return a snapshot
	 */
	public Collection<McpSession> getSessions() {
		return this.store.findAll();
	}

	/**
	 * Find a session by its subscriber's id, the name reports use instead of the secret
	 * session id.
	 * @param subscriberId the subscriber id
	 * @return the session, or {@code null}
	 */
	public @Nullable McpSession findBySubscriberId(String subscriberId) {
		for (Map.Entry<String, Subscriber> entry : this.subscribers.entrySet()) {
			if (entry.getValue().getId().equals(subscriberId)) {
				return this.store.find(entry.getKey());
			}
		}
		return null;
	}

	/**
	 * How many sessions exist.
	 * @return the count
	 */
	public int getSessionCount() {
		return this.store.count();
	}

	/**
	 * How many GET streams are open on this node.
	 * @return the count
	 */
	public int getOpenStreamCount() {
		return this.streams.size();
	}

	/**
	 * End every session that has been idle for longer than the idle timeout.
	 * @return how many sessions ended
	 */
	public int expireIdleSessions() {
		if (isShared()) {
			// Another node must not take a session whose stream is open here for idle.
			keepHeldSessions();
		}
		Instant deadline = this.clock.instant().minus(this.idleTimeout);
		int expired = 0;
		for (McpSession session : this.store.findAll()) {
			if (!this.streams.containsKey(session.getId()) && session.getLastAccessedAt().isBefore(deadline)
					&& end(session.getId(), SessionEndReason.EXPIRED)) {
				expired++;
			}
		}
		return expired;
	}

	/**
	 * Keep the sessions whose streams this node holds from expiring, and end the streams
	 * of those the store no longer has (lost with a shared store's data, as when Redis
	 * restarted empty): their clients' next requests are answered 404, so they initialize
	 * again, rather than being served by a stream that no limit counts and nothing
	 * expires.
	 * @return how many streams ended
	 */
	public int keepHeldSessions() {
		int ended = 0;
		for (String id : this.streams.keySet()) {
			McpSession session = this.store.find(id);
			if (session != null) {
				touch(session);
			}
			else if (this.streams.containsKey(id)) {
				release(id);
				ended++;
			}
		}
		return ended;
	}

	/**
	 * Give up the streams of clients that stopped reading: a write blocked for longer
	 * than the write timeout.
	 * @return how many streams were given up
	 */
	public int closeStalledStreams() {
		return this.engine.closeStalledStreams(this.clock.instant(), this.writeTimeout);
	}

	@Override
	public void start() {
		MaintenanceExecutor executor = new MaintenanceExecutor("mcp-sessions");
		executor.every(clamp(this.idleTimeout.dividedBy(2)), this::expireIdleSessions);
		executor.every(clamp(this.writeTimeout.dividedBy(4)), this::closeStalledStreams);
		this.scheduler = executor;
	}

	private static Duration clamp(Duration interval) {
		if (interval.compareTo(MIN_SWEEP_INTERVAL) < 0) {
			return MIN_SWEEP_INTERVAL;
		}
		return (interval.compareTo(MAX_SWEEP_INTERVAL) > 0) ? MAX_SWEEP_INTERVAL : interval;
	}

	/**
	 * Stop maintenance and complete every open stream cleanly, so that the web server's
	 * graceful shutdown does not wait for them. Sessions stay in the store: with a shared
	 * store, another node may serve them.
	 */
	@Override
	public void stop() {
		MaintenanceExecutor executor = this.scheduler;
		this.scheduler = null;
		if (executor != null) {
			executor.close();
		}
		for (String id : List.copyOf(this.streams.keySet())) {
			MessageStream stream = this.streams.remove(id);
			if (stream != null) {
				stream.close();
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.scheduler != null;
	}

}
