package io.github.mcpsubscriptions.stress;

import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;

import io.github.mcpsubscriptions.resource.McpResource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Requests held back until {@link #go()}, then sent at once from a pool, so that they
 * race each other (and whatever the test does meanwhile) on the server.
 */
final class RacingRequests {

	private final CountDownLatch start = new CountDownLatch(1);

	private final ExecutorService pool;

	RacingRequests(ExecutorService pool) {
		this.pool = pool;
	}

	/**
	 * A request to send on {@link #go()}.
	 * @param request the request
	 * @return its response, once answered
	 */
	CompletableFuture<HttpResponse<String>> add(Request request) {
		return CompletableFuture.supplyAsync(() -> {
			try {
				this.start.await();
				return request.send();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}, this.pool);
	}

	/**
	 * Send every request added.
	 */
	void go() {
		this.start.countDown();
	}

	@FunctionalInterface
	interface Request {

		HttpResponse<String> send() throws Exception;

	}

	/**
	 * A template resource, {@code race://items/{id}}, to subscribe to.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Items raceItems() {
			return new Items();
		}

	}

	static class Items {

		@McpResource(uri = "race://items/{id}")
		String item(String id) {
			return id;
		}

	}

}
