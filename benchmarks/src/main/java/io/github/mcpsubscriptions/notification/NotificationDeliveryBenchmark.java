package io.github.mcpsubscriptions.notification;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.mcpsubscriptions.benchmarks.JsonText;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.security.ResourceRuleAccessPolicy;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.subscription.SubscriptionIndex;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.security.access.expression.method.DefaultMethodSecurityExpressionHandler;
import org.springframework.security.authentication.TestingAuthenticationToken;

/**
 * What one change costs between the change feed and the subscribers' streams, and what
 * writing one notification as JSON costs.
 * <p>
 * <b>Fan-out</b> ({@link Fanout}, M = 1, 100, 1000 subscribers, each subscribed to the
 * template <code>catalog://products/{id}</code> and to one exact URI of its own): every
 * change (a distinct {@code catalog://products/<n>}, so nothing coalesces) matches once
 * per subscriber (with a subscription id of its own in the {@code 2026} era). Each
 * subscriber's outbox is attached to a no-op {@link MessageStream} that turns each
 * message into bytes as a real stream does, and drains run on the calling thread (a
 * same-thread {@link DeliveryScheduler}). {@code onChangeUntilWritten} goes through the
 * path production takes, {@link NotificationDispatcher#onChange}, which hands the change
 * to the dispatcher's own thread (match, queue in the lanes, encode, write); the
 * benchmark thread then waits until all M notifications were written. <b>Encoding</b>
 * ({@link Encoding}): one {@code notifications/resources/updated} with {@code uri},
 * {@code subscribedUri} and a one-entry {@code _meta}, written by
 * {@link NotificationEncoder} (Jackson) and by a hand-built string (the lower bound).
 * <p>
 * In the engine's package, since what it measures (the dispatcher, the encoder, the
 * outboxes) is package-private behind {@link NotificationEngine}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
public class NotificationDeliveryBenchmark {

	static final String TEMPLATE = "catalog://products/{id}";

	/**
	 * Counts writes and turns each message into bytes in a buffer of its own, as a real
	 * SSE stream does before handing them to the container; sends nothing.
	 */
	static final class NoOpStream implements MessageStream {

		volatile long sent;

		private long bytes;

		private byte[] buffer = new byte[1024];

		@Override
		public void send(String eventId, String data) {
			byte[] message = data.getBytes(StandardCharsets.UTF_8);
			System.arraycopy(message, 0, room(message.length), 0, message.length);
			this.bytes += message.length;
			this.sent++;
		}

		@Override
		public void send(String eventId, EncodedMessage data) {
			data.copyTo(room(data.length()), 0);
			this.bytes += data.length();
			this.sent++;
		}

		private byte[] room(int length) {
			if (this.buffer.length < length) {
				this.buffer = new byte[Math.max(length, this.buffer.length * 2)];
			}
			return this.buffer;
		}

		@Override
		public void prime(String eventId) {
		}

		@Override
		public void sendComment(String comment) {
		}

		@Override
		public boolean isOpen() {
			return true;
		}

		@Override
		public void close() {
		}

	}

	/**
	 * Runs drains on the calling thread; no rate limit is set, so nothing is scheduled.
	 */
	static final class SameThreadScheduler implements DeliveryScheduler {

		@Override
		public void execute(Runnable task) {
			task.run();
		}

		@Override
		public void schedule(Runnable task, Duration delay) {
			task.run();
		}

	}

	@State(Scope.Benchmark)
	public static class Fanout {

		@Param({ "1", "100", "1000" })
		int subscribers;

		/**
		 * {@code 2025}: subscribers without {@code _meta} of their own (sessions);
		 * {@code 2026}: each with its subscription id (listen streams).
		 */
		@Param({ "2025", "2026" })
		String era;

		NotificationDispatcher dispatcher;

		SubscriptionIndex<Subscriber> index;

		NoOpStream[] streams;

		final Map<String, Object> attributes = Map.of("version", 7);

		/**
		 * Shared by the threads of {@code sharedMatchOfferEncode}: every change is new.
		 */
		final AtomicLong next = new AtomicLong();

		@Setup(Level.Trial)
		public void setUp() {
			this.index = new SubscriptionIndex<>();
			this.dispatcher = new NotificationDispatcher(new InMemoryResourceChangeFeed(), this.index,
					ResourceAccessPolicy.PERMIT_ALL, List.of(), new NotificationEncoder(new JsonRpcCodec(), true),
					new SameThreadScheduler(), Clock.systemUTC(), 1000, (uri) -> Duration.ZERO);
			this.streams = new NoOpStream[this.subscribers];
			for (int i = 0; i < this.subscribers; i++) {
				Subscriber subscriber = this.dispatcher.register("bench-" + i, null, false,
						"2026".equals(this.era) ? Map.of("io.modelcontextprotocol/subscriptionId", i) : Map.of());
				this.dispatcher.subscribe(subscriber, TEMPLATE);
				this.dispatcher.subscribe(subscriber, "catalog://orders/" + i);
				this.streams[i] = new NoOpStream();
				subscriber.getOutbox().attach(this.streams[i]);
			}
		}

		String nextUri() {
			return "catalog://products/" + (this.next.getAndIncrement() & 0xFFFFF);
		}

		long written() {
			long total = 0;
			for (NoOpStream stream : this.streams) {
				total += stream.sent;
			}
			return total;
		}

		@TearDown(Level.Trial)
		public void tearDown() {
			this.dispatcher.close();
		}

	}

	@Benchmark
	public long onChangeUntilWritten(Fanout state) {
		long target = state.written() + state.subscribers;
		state.dispatcher.onChange(new ResourceChange(state.nextUri(), state.attributes, Instant.now()));
		long written;
		while ((written = state.written()) < target) {
			// Two cores: give the dispatcher's thread the processor rather than spin.
			Thread.yield();
		}
		return written;
	}

	/**
	 * Fan-out with authorization: M subscribers, each with an authentication of its own
	 * and subscribed to the template, judged for every notification by
	 * <ul>
	 * <li>{@code permit-all}: the default without Spring Security (the baseline);</li>
	 * <li>{@code rule}: {@link ResourceRuleAccessPolicy} evaluating the template's rule
	 * ({@code hasAuthority('SCOPE_catalog:read') and #id != '4'}) every time (decision
	 * cache off);</li>
	 * <li>{@code rule-cached}: the same with the decision cache on.</li>
	 * </ul>
	 * Changes cycle over 10 products, as hot resources change again and again; the cache
	 * holds up to 100,000 decisions, enough for every (subscriber, product) pair.
	 */
	@State(Scope.Benchmark)
	public static class AuthorizedFanout {

		@Param({ "100", "1000" })
		int subscribers;

		@Param({ "permit-all", "rule", "rule-cached" })
		String access;

		ResourceAccessPolicy policy;

		SubscriptionIndex<Subscriber> index;

		NotificationDispatcher dispatcher;

		final Map<String, Object> attributes = Map.of("version", 7);

		long next;

		final List<NoOpStream> streams = new ArrayList<>();

		@Setup(Level.Trial)
		public void setUp() {
			ResourceRegistry registry = new ResourceRegistry();
			registry.register(ResourceDefinition.builder(TEMPLATE, (request) -> "product")
				.accessRule("hasAuthority('SCOPE_catalog:read') and #id != '4'")
				.build());
			this.policy = switch (this.access) {
				case "permit-all" -> ResourceAccessPolicy.PERMIT_ALL;
				case "rule" -> new ResourceRuleAccessPolicy(registry, new DefaultMethodSecurityExpressionHandler(),
						Duration.ZERO, 0);
				default -> new ResourceRuleAccessPolicy(registry, new DefaultMethodSecurityExpressionHandler(),
						Duration.ofMinutes(10), 100_000);
			};
			this.index = new SubscriptionIndex<>();
			this.dispatcher = new NotificationDispatcher(new InMemoryResourceChangeFeed(), this.index, this.policy,
					List.of(), new NotificationEncoder(new JsonRpcCodec(), true), new SameThreadScheduler(),
					Clock.systemUTC(), 1000, (uri) -> Duration.ZERO);
			for (int i = 0; i < this.subscribers; i++) {
				Subscriber subscriber = this.dispatcher.register("bench-" + i,
						new TestingAuthenticationToken("client-" + i, null, "SCOPE_catalog:read"), false, Map.of());
				this.dispatcher.subscribe(subscriber, TEMPLATE);
				NoOpStream stream = new NoOpStream();
				this.streams.add(stream);
				subscriber.getOutbox().attach(stream);
			}
		}

		String nextUri() {
			return "catalog://products/" + (this.next++ % 10);
		}

		long written() {
			long total = 0;
			for (NoOpStream stream : this.streams) {
				total += stream.sent;
			}
			return total;
		}

		@TearDown(Level.Trial)
		public void tearDown() {
			this.dispatcher.close();
		}

	}

	/**
	 * One change through the dispatcher, as production delivers it: match, the access
	 * check with each subscriber's authentication, then queue, encode and write what is
	 * allowed; the benchmark thread waits until every allowed notification was written.
	 * @param state the subscribers and the policy
	 * @return how many notifications were written so far
	 */
	@Benchmark
	public long matchAuthorizeOfferEncode(AuthorizedFanout state) {
		String uri = state.nextUri();
		// The rule denies product 4: nothing is written for it.
		boolean denied = !state.access.equals("permit-all") && uri.endsWith("/4");
		long target = state.written() + (denied ? 0 : state.subscribers);
		state.dispatcher.onChange(new ResourceChange(uri, state.attributes, Instant.now()));
		long written;
		while ((written = state.written()) < target) {
			Thread.yield();
		}
		return written;
	}

	@State(Scope.Benchmark)
	public static class Encoding {

		NotificationEncoder encoder;

		Subscriber subscriber;

		OutboundNotification notification;

		Subscriber listener;

		@Setup(Level.Trial)
		public void setUp() {
			this.encoder = new NotificationEncoder(new JsonRpcCodec(), true);
			NotificationDispatcher dispatcher = new NotificationDispatcher(new InMemoryResourceChangeFeed(),
					new SubscriptionIndex<>(), ResourceAccessPolicy.PERMIT_ALL, List.of(), this.encoder,
					new SameThreadScheduler(), Clock.systemUTC(), 1, (uri) -> Duration.ZERO);
			this.subscriber = dispatcher.register("bench", null, false, Map.of());
			this.listener = dispatcher.register("bench-2026", null, false,
					Map.of("io.modelcontextprotocol/subscriptionId", "listen-4711"));
			dispatcher.close();
			this.notification = new OutboundNotification(OutboundNotification.RESOURCE_UPDATED,
					"catalog://products/4711", TEMPLATE, Map.of("version", 7), false, Instant.now());
		}

	}

	/**
	 * A notification encoded for the first time (a new instance each call: the encoder
	 * keeps a notification's text with it).
	 * @param state the notification
	 * @return the JSON
	 */
	@Benchmark
	public String encodeWithNotificationEncoder(Encoding state) {
		OutboundNotification n = state.notification;
		return state.encoder.encode(new OutboundNotification(n.method(), n.uri(), n.subscribedUri(), n.attributes(),
				false, n.publishedAt()), state.subscriber);
	}

	/**
	 * What every further subscriber of a shared notification costs in the 2026 era: its
	 * subscription id spliced into the text built once.
	 * @param state the notification
	 * @return the JSON
	 */
	@Benchmark
	public String encodeSharedForAListener(Encoding state) {
		return state.encoder.encode(state.notification, state.listener);
	}

	/**
	 * The same bytes as the encoder writes for this notification, built by hand: no maps,
	 * no serializer. Strings are escaped for JSON; the attribute value is a number.
	 * @param state the notification
	 * @return the JSON
	 */
	@Benchmark
	public String encodeByHand(Encoding state) {
		OutboundNotification n = state.notification;
		StringBuilder json = new StringBuilder(160);
		json.append("{\"jsonrpc\":\"2.0\",\"method\":\"").append(n.method()).append("\",\"params\":{\"uri\":\"");
		JsonText.escape(json, n.uri());
		json.append("\",\"subscribedUri\":\"");
		JsonText.escape(json, n.subscribedUri());
		json.append("\",\"_meta\":{");
		boolean first = true;
		for (Map.Entry<String, Object> entry : n.attributes().entrySet()) {
			if (!first) {
				json.append(',');
			}
			first = false;
			json.append('"');
			JsonText.escape(json, entry.getKey());
			json.append("\":").append(entry.getValue());
		}
		return json.append("}}}").toString();
	}

}
