package io.github.mcpsubscriptions.benchmarks.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;

/**
 * Makes the server under test publish a change of the resource numbered {@code n}; the
 * harness then expects one notification whose {@code uri} ends in {@code /n} per
 * subscriber. Implementations must not block the publishing loop for long.
 */
public interface ChangeTrigger extends AutoCloseable {

	/**
	 * Publish a change of resource {@code n}.
	 * @param n the resource's number
	 */
	void fire(long n);

	/**
	 * How many triggers failed (an exception, or an HTTP status other than 2xx).
	 * @return the count
	 */
	long errors();

	/**
	 * The round trip of each answered call (sent to answered), for triggers that call the
	 * server; how long the application's own requests take while it delivers.
	 * @return the figures, or {@code null} when the trigger makes no calls
	 */
	default LatencyStats roundTrips() {
		return null;
	}

	@Override
	default void close() {
	}

	/**
	 * An HTTP call per change, by default the sample application's {@code PUT
	 * /api/products/{id}} with a JSON body. At most 256 calls are in flight; past that
	 * the publishing loop waits (and the achieved rate, reported, falls short).
	 */
	final class Http implements ChangeTrigger {

		private final HttpClient http;

		private final LongFunction<URI> target;

		private final Done done;

		private final String method;

		private final String bodyTemplate;

		private final Semaphore inFlight = new Semaphore(256);

		private final AtomicLong errors = new AtomicLong();

		private final LatencyStats roundTrips = new LatencyStats();

		/**
		 * Create a trigger.
		 * @param http the client
		 * @param urlTemplate the URL, with {@code {n}} for the resource's number
		 * @param method the HTTP method
		 * @param bodyTemplate the JSON body, with {@code {n}}
		 */
		public Http(HttpClient http, String urlTemplate, String method, String bodyTemplate) {
			this(http, (n) -> URI.create(urlTemplate.replace("{n}", Long.toString(n))), method, bodyTemplate,
					(n, target, succeeded) -> {
					});
		}

		/**
		 * Create a trigger.
		 * @param http the client
		 * @param target the URL of the call for resource n (the cluster harness spreads
		 * them over its nodes)
		 * @param method the HTTP method
		 * @param bodyTemplate the JSON body, with {@code {n}}
		 * @param done told when each call ended
		 */
		public Http(HttpClient http, LongFunction<URI> target, String method, String bodyTemplate, Done done) {
			this.http = http;
			this.target = target;
			this.method = method;
			this.bodyTemplate = bodyTemplate;
			this.done = done;
		}

		@Override
		public void fire(long n) {
			String number = Long.toString(n);
			URI target = this.target.apply(n);
			HttpRequest request = HttpRequest.newBuilder(target)
				.timeout(Duration.ofSeconds(10))
				.header("Content-Type", "application/json")
				.method(this.method, HttpRequest.BodyPublishers.ofString(this.bodyTemplate.replace("{n}", number)))
				.build();
			this.inFlight.acquireUninterruptibly();
			long sent = System.nanoTime();
			this.http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, ex) -> {
				long answered = System.nanoTime();
				boolean succeeded = ex == null && response.statusCode() / 100 == 2;
				if (!succeeded) {
					this.errors.incrementAndGet();
				}
				else {
					this.roundTrips.record(answered - sent, answered);
				}
				// Before the permit: once close() returns, every call has been reported.
				this.done.ended(n, target, succeeded);
				this.inFlight.release();
			});
		}

		@Override
		public long errors() {
			return this.errors.get();
		}

		@Override
		public LatencyStats roundTrips() {
			return this.roundTrips;
		}

		/** What became of one call. */
		@FunctionalInterface
		public interface Done {

			/**
			 * Called when a call has been answered or has failed.
			 * @param n the resource's number
			 * @param target where the call went
			 * @param succeeded whether it was answered with 2xx
			 */
			void ended(long n, URI target, boolean succeeded);

		}

		@Override
		public void close() {
			// Let the calls still in flight finish (bounded).
			try {
				if (this.inFlight.tryAcquire(256, 10, TimeUnit.SECONDS)) {
					this.inFlight.release(256);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	/**
	 * A change published inside the harness's JVM, straight into the embedded server (its
	 * {@code ApplicationEventPublisher}, or the raw broadcaster): no HTTP call.
	 */
	final class InProcess implements ChangeTrigger {

		private final LongConsumer publisher;

		private final AtomicLong errors = new AtomicLong();

		public InProcess(LongConsumer publisher) {
			this.publisher = publisher;
		}

		@Override
		public void fire(long n) {
			try {
				this.publisher.accept(n);
			}
			catch (RuntimeException ex) {
				this.errors.incrementAndGet();
			}
		}

		@Override
		public long errors() {
			return this.errors.get();
		}

	}

}
