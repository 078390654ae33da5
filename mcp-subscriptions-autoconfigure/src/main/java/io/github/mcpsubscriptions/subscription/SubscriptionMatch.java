package io.github.mcpsubscriptions.subscription;

/**
 * One subscription that covers a changed URI, as returned by
 * {@link SubscriptionIndex#match(String)}: the notification for it carries
 * {@code subscribedUri}.
 *
 * @param <S> the subscriber type
 * @param subscriber the subscriber that holds the subscription
 * @param subscribedUri the URI the subscriber subscribed to
 * @since 0.1.0
 */
public record SubscriptionMatch<S>(S subscriber, String subscribedUri) {

}
