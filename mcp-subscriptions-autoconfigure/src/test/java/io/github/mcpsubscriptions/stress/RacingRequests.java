package io.github.mcpsubscriptions.stress;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestClient;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests held back until {@link #go()}, then sent at once from a pool, so that they
 * race each other (and whatever the test does meanwhile) on the server.
 */
public final class RacingRequests {

	private final CountDownLatch start = new CountDownLatch(1);

	private final ExecutorService pool;

	public RacingRequests(ExecutorService pool) {
		this.pool = pool;
	}

	/**
	 * A request to send on {@link #go()}.
	 * @param request the request
	 * @return its response, once answered
	 */
	public CompletableFuture<HttpResponse<String>> add(Request request) {
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
	 * Subscribes of one session to send on {@link #go()}, each to another
	 * {@code race://items/{i}}.
	 * @param client the client
	 * @param sessionId the session
	 * @param count how many
	 * @return their responses, once answered
	 */
	List<CompletableFuture<HttpResponse<String>>> addSubscribes(McpTestClient client, String sessionId, int count) {
		List<CompletableFuture<HttpResponse<String>>> requests = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String params = "{\"uri\":\"race://items/" + i + "\"}";
			requests.add(add(() -> client.call(sessionId, "resources/subscribe", params)));
		}
		return requests;
	}

	/**
	 * Send every request added.
	 */
	public void go() {
		this.start.countDown();
	}

	/**
	 * Assert that requests racing the end of their session were answered either way
	 * (done, or the session was gone): never a 5xx.
	 * @param requests the requests
	 */
	public static void assertAnsweredOrGone(List<CompletableFuture<HttpResponse<String>>> requests) throws Exception {
		for (CompletableFuture<HttpResponse<String>> request : requests) {
			assertThat(request.get(30, TimeUnit.SECONDS).statusCode()).isIn(200, 404);
		}
	}

	/**
	 * Assert that no subscriber and no subscription is left.
	 * @param dispatcher the dispatcher
	 */
	static void assertNothingLeft(NotificationEngine dispatcher) {
		assertThat(dispatcher.getIndex().size()).isZero();
		assertThat(dispatcher.getIndex().subscriberCount()).isZero();
		assertThat(dispatcher.getSubscribers()).isEmpty();
	}

	@FunctionalInterface
	public interface Request {

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
