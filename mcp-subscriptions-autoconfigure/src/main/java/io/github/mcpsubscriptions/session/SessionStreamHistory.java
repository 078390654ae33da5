package io.github.mcpsubscriptions.session;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.Subscriber;
import org.jspecify.annotations.Nullable;

/**
 * The event ids and replay of 2025-era GET streams when they must work on any node: a
 * clustered deployment names each event by its position in a shared change log and
 * replays by re-matching that log. Without one, each session keeps its own
 * {@link SessionEventLog} on the node that serves it.
 *
 * @since 0.1.0
 */
public interface SessionStreamHistory {

	/**
	 * Give a message about to be written to a session's stream its event id.
	 * @param session the session
	 * @param position the change log position of the change the message reports, or
	 * {@code null} for a message that reports none
	 * @return its event id, or {@code null} to skip it: a replay has already written it
	 */
	@Nullable String append(McpSession session, @Nullable String position);

	/**
	 * Prepare a newly attached stream of a session whose subscriber this node now holds:
	 * load its subscriptions and work out what it missed. Runs on the request's thread,
	 * so a failure answers the request.
	 * @param session the session
	 * @param subscriber the session's subscriber on this node
	 * @param lastEventId the client's {@code Last-Event-ID}, or {@code null}
	 * @return what to write first on the stream: a priming event, the replay
	 */
	NotificationEngine.AttachAction attach(McpSession session, Subscriber subscriber, @Nullable String lastEventId);

	/**
	 * A session's stream on this node closed.
	 * @param session the session
	 */
	void detached(McpSession session);

}
