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

	@Override
	default void close() {
	}

	/**
	 * An HTTP call per change, by default the sample application's
	 * {@code PUT /api/products/{id}} with a JSON body. At most 256 calls are in flight; past
	 * that the publishing loop waits (and the achieved rate, reported, falls short).
	 */
	final class Http implements ChangeTrigger {

		private final HttpClient http;

		private final String urlTemplate;

		private final String method;

		private final String bodyTemplate;

		private final Semaphore inFlight = new Semaphore(256);

		private final AtomicLong errors = new AtomicLong();

		/**
		 * @param http the client
		 * @param urlTemplate the URL, with {@code {n}} for the resource's number
		 * @param method the HTTP method
		 * @param bodyTemplate the JSON body, with {@code {n}}
		 */
		public Http(HttpClient http, String urlTemplate, String method, String bodyTemplate) {
			this.http = http;
			this.urlTemplate = urlTemplate;
			this.method = method;
			this.bodyTemplate = bodyTemplate;
		}

		@Override
		public void fire(long n) {
			String number = Long.toString(n);
			HttpRequest request = HttpRequest.newBuilder(URI.create(this.urlTemplate.replace("{n}", number)))
				.timeout(Duration.ofSeconds(10))
				.header("Content-Type", "application/json")
				.method(this.method, HttpRequest.BodyPublishers.ofString(this.bodyTemplate.replace("{n}", number)))
				.build();
			this.inFlight.acquireUninterruptibly();
			this.http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, ex) -> {
				this.inFlight.release();
				if (ex != null || response.statusCode() / 100 != 2) {
					this.errors.incrementAndGet();
				}
			});
		}

		@Override
		public long errors() {
			return this.errors.get();
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
