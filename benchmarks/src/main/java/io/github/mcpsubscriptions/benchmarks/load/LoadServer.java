package io.github.mcpsubscriptions.benchmarks.load;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The harness's embedded servers, on 127.0.0.1 and a free port: the MCP server (the
 * starter, one {@code @McpResource} template, the sample application's {@code PUT
 * /api/products/{id}}) and the raw broadcaster (N plain {@code SseEmitter}s that get the
 * same bytes per event, with no MCP logic). Both answer {@code GET /harness/heap} with
 * the heap in use after garbage collection.
 */
public final class LoadServer implements AutoCloseable {

	/**
	 * The template the MCP server serves and the raw broadcaster names as
	 * {@code subscribedUri}.
	 */
	static final String TEMPLATE = "catalog://products/{id}";

	/**
	 * The server's settings, and why.
	 * <ul>
	 * <li>{@code server.tomcat.max-connections=20000}: every SSE subscriber holds one
	 * connection (Tomcat's default, 8192, would leave connections past it waiting in the
	 * accept queue); set-up requests need a few more.</li>
	 * <li>{@code server.tomcat.accept-count=2000}: the back-log of connections not yet
	 * accepted, for the burst of connects while N subscribers set up (default 100).</li>
	 * <li>{@code server.tomcat.threads.max=200}: unchanged from the default on purpose.
	 * SSE streams are asynchronous requests and hold no thread while open; on two cores
	 * more request threads only add contention.</li>
	 * <li>{@code server.tomcat.max-keep-alive-requests=-1}: set-up requests reuse their
	 * connections (the default closes a connection after 100 requests).</li>
	 * <li>{@code mcp.sessions.max}, {@code mcp.listen.max-streams},
	 * {@code mcp.subscriptions.max-total}: above what the largest run opens (the defaults
	 * are 10,000 sessions, 1,000 listen streams and 100,000 subscriptions).</li>
	 * <li>{@code mcp.listen.rate-limit.requests=0}: every subscriber of a run listens
	 * from the one loopback address, far faster than a single client is allowed to.</li>
	 * </ul>
	 */
	static final Map<String, Object> PROPERTIES = Map.ofEntries(Map.entry("server.address", "127.0.0.1"),
			Map.entry("server.port", "0"), Map.entry("server.tomcat.max-connections", "20000"),
			Map.entry("server.tomcat.accept-count", "2000"), Map.entry("server.tomcat.threads.max", "200"),
			Map.entry("server.tomcat.max-keep-alive-requests", "-1"), Map.entry("mcp.sessions.max", "20000"),
			Map.entry("mcp.listen.max-streams", "20000"), Map.entry("mcp.subscriptions.max-total", "2000000"),
			Map.entry("mcp.listen.rate-limit.requests", "0"), Map.entry("spring.main.banner-mode", "off"),
			Map.entry("spring.jmx.enabled", "false"), Map.entry("logging.level.root", "WARN"));

	/**
	 * The system property that picks the servlet container: {@code tomcat} (the default)
	 * or {@code jetty}. Both are on the harness's class path; the other's
	 * auto-configuration is excluded.
	 */
	static final String SERVER = "harness.server";

	private static final Map<String, String> SERVER_AUTO_CONFIGURATIONS = Map.of("tomcat",
			"org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration", "jetty",
			"org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration");

	private final ConfigurableApplicationContext context;

	private final LongConsumer publisher;

	private LoadServer(ConfigurableApplicationContext context, LongConsumer publisher) {
		this.context = context;
		this.publisher = publisher;
	}

	/**
	 * Start a server in this JVM.
	 * @param raw the raw broadcaster rather than the MCP server
	 * @return the running server
	 */
	static LoadServer start(boolean raw) {
		SpringApplication application = new SpringApplication(raw ? RawApp.class : McpApp.class);
		Map<String, Object> properties = new HashMap<>(PROPERTIES);
		properties.put("mcp.enabled", Boolean.toString(!raw));
		String server = System.getProperty(SERVER, "tomcat");
		if (!SERVER_AUTO_CONFIGURATIONS.containsKey(server)) {
			throw new IllegalArgumentException("-D" + SERVER + " is tomcat or jetty, not " + server);
		}
		properties.put("spring.autoconfigure.exclude",
				SERVER_AUTO_CONFIGURATIONS.entrySet()
					.stream()
					.filter((entry) -> !entry.getKey().equals(server))
					.map(Map.Entry::getValue)
					.collect(Collectors.joining(",")));
		application.setDefaultProperties(properties);
		ConfigurableApplicationContext context = application.run();
		LongConsumer publisher = raw ? context.getBean(RawBroadcaster.class)::broadcast
				: context.getBean(ProductsController.class)::publish;
		return new LoadServer(context, publisher);
	}

	int port() {
		return Integer.parseInt(this.context.getEnvironment().getProperty("local.server.port"));
	}

	LongConsumer publisher() {
		return this.publisher;
	}

	@Override
	public void close() {
		this.context.close();
	}

	/**
	 * The heap in use after garbage collection (a few full collections, so that what is
	 * left is what is reachable).
	 * @return bytes
	 */
	static long usedHeapAfterGc() {
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 4; i++) {
			System.gc();
			try {
				Thread.sleep(150);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
			used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
		}
		return used;
	}

	/** The notification JSON both servers send for a change of product n. */
	static String notificationJson(long n) {
		return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"catalog://products/"
				+ n + "\",\"subscribedUri\":\"" + TEMPLATE + "\",\"_meta\":{\"change\":\"updated\"}}}";
	}

	/**
	 * Tomcat connector attributes that Spring Boot has no property for (the
	 * per-connection socket buffers, {@code socket.appReadBufSize} and
	 * {@code socket.appWriteBufSize}), from system properties named
	 * {@code harness.tomcat.connector.<attribute>}: the harness's
	 * {@code --server-properties} then measures their effect on the heap per open stream.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ConnectorAttributes {

		static final String PREFIX = "harness.tomcat.connector.";

		@Bean
		WebServerFactoryCustomizer<TomcatServletWebServerFactory> harnessConnectorAttributes() {
			return (factory) -> factory.addConnectorCustomizers((connector) -> System.getProperties()
				.stringPropertyNames()
				.stream()
				.filter((name) -> name.startsWith(PREFIX))
				.forEach((name) -> {
					String attribute = name.substring(PREFIX.length());
					if (!connector.setProperty(attribute, System.getProperty(name))) {
						throw new IllegalArgumentException("Tomcat's connector has no attribute " + attribute);
					}
				}));
		}

	}

	/**
	 * Jetty's per-connection settings that Spring Boot has no property for, from system
	 * properties named {@code harness.jetty.http.<setting>} ({@code headerCacheSize},
	 * {@code outputBufferSize}, {@code outputAggregationSize},
	 * {@code responseHeaderSize}): set on the {@link HttpConfiguration} of every
	 * connector, so that a run measures their effect on the heap per open stream. A
	 * customizer of Jetty's factory: it is applied only when Jetty is the container.
	 */
	@Configuration(proxyBeanMethods = false)
	static class JettyHttpSettings {

		static final String PREFIX = "harness.jetty.http.";

		@Bean
		WebServerFactoryCustomizer<JettyServletWebServerFactory> harnessJettyHttpSettings() {
			return (factory) -> factory.addServerCustomizers((server) -> {
				for (Connector connector : server.getConnectors()) {
					HttpConnectionFactory http = connector.getConnectionFactory(HttpConnectionFactory.class);
					if (http != null) {
						apply(http.getHttpConfiguration());
					}
				}
			});
		}

		private static void apply(HttpConfiguration configuration) {
			for (String name : System.getProperties().stringPropertyNames()) {
				if (name.startsWith(PREFIX)) {
					String setting = name.substring(PREFIX.length());
					int value = Integer.parseInt(System.getProperty(name));
					switch (setting) {
						case "headerCacheSize" -> configuration.setHeaderCacheSize(value);
						case "outputBufferSize" -> configuration.setOutputBufferSize(value);
						case "outputAggregationSize" -> configuration.setOutputAggregationSize(value);
						case "responseHeaderSize" -> configuration.setResponseHeaderSize(value);
						default -> throw new IllegalArgumentException("No Jetty HTTP setting " + setting);
					}
				}
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import({ ConnectorAttributes.class, JettyHttpSettings.class })
	static class McpApp {

		@Bean
		ProductResources productResources() {
			return new ProductResources();
		}

		@Bean
		ProductsController productsController(ApplicationEventPublisher events) {
			return new ProductsController(events);
		}

		@Bean
		HeapController heapController() {
			return new HeapController();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import({ ConnectorAttributes.class, JettyHttpSettings.class })
	static class RawApp {

		@Bean
		RawBroadcaster rawBroadcaster() {
			return new RawBroadcaster();
		}

		@Bean
		HeapController heapController() {
			return new HeapController();
		}

	}

	/** One resource template: every product number is a resource. */
	static class ProductResources {

		@McpResource(uri = TEMPLATE, name = "product", description = "One product as JSON")
		public Map<String, Object> product(long id) {
			return Map.of("id", id, "name", "product " + id);
		}

	}

	/** The sample application's REST update, reduced to publishing the change. */
	@RestController
	static class ProductsController {

		private final ApplicationEventPublisher events;

		ProductsController(ApplicationEventPublisher events) {
			this.events = events;
		}

		@PutMapping(path = "/api/products/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
		ResponseEntity<Void> update(@PathVariable("id") long id, @RequestBody(required = false) String body) {
			publish(id);
			return ResponseEntity.noContent().build();
		}

		void publish(long id) {
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/" + id, Map.of("change", "updated")));
		}

	}

	@RestController
	static class HeapController {

		@GetMapping("/harness/heap")
		Map<String, Long> heap() {
			return Map.of("usedAfterGc", usedHeapAfterGc());
		}

	}

	/**
	 * Holds plain {@code SseEmitter}s and writes the MCP server's notification bytes
	 * ({@code id}, {@code event: message}, the same JSON) to each of them, the way the
	 * MCP server delivers: 16 writers each own a sixteenth of the emitters (so events
	 * reach one emitter in order), at most half the cores' worth of them run at once, and
	 * what waits for a writer is sent to each of its emitters with one flush, up to the
	 * MCP server's default batch (64 events or 32 KiB). A stream opened with {@code ?n=K}
	 * gets only the events of product K (a subscription to one resource), the others
	 * every event.
	 */
	@RestController
	static class RawBroadcaster {

		private static final int WRITERS = 16;

		private static final int BATCH_EVENTS = 64;

		private static final int BATCH_BYTES = 32 * 1024;

		private static final MediaType UTF8_TEXT = new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8);

		/** Per writer: its emitters, each with the product it gets (0: every product). */
		private final List<Map<SseEmitter, Long>> slices = IntStream.range(0, WRITERS)
			.mapToObj((i) -> (Map<SseEmitter, Long>) new ConcurrentHashMap<SseEmitter, Long>())
			.toList();

		private final List<Queue<Frame>> pending = IntStream.range(0, WRITERS)
			.mapToObj((i) -> (Queue<Frame>) new ConcurrentLinkedQueue<Frame>())
			.toList();

		private final AtomicBoolean[] scheduled = IntStream.range(0, WRITERS)
			.mapToObj((i) -> new AtomicBoolean())
			.toArray(AtomicBoolean[]::new);

		private final Semaphore running = new Semaphore(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));

		private final ExecutorService[] writers = IntStream.range(0, WRITERS)
			.mapToObj((i) -> Executors.newSingleThreadExecutor((task) -> {
				Thread thread = new Thread(task, "raw-writer-" + i);
				thread.setDaemon(true);
				return thread;
			}))
			.toArray(ExecutorService[]::new);

		private final AtomicLong connections = new AtomicLong();

		private final AtomicLong sequence = new AtomicLong();

		/**
		 * Whether a stream gets one product's events: only then are batches split by
		 * product (the default run costs what it did).
		 */
		private volatile boolean someByProduct;

		@GetMapping(path = "/raw/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
		SseEmitter stream(@RequestParam(name = "n", defaultValue = "0") long product) throws IOException {
			SseEmitter emitter = new SseEmitter(0L);
			Map<SseEmitter, Long> slice = this.slices.get((int) (this.connections.getAndIncrement() % WRITERS));
			slice.put(emitter, product);
			if (product != 0) {
				this.someByProduct = true;
			}
			emitter.onCompletion(() -> slice.remove(emitter));
			emitter.onError((ex) -> slice.remove(emitter));
			emitter.send(SseEmitter.event().comment("open"));
			return emitter;
		}

		@PutMapping(path = "/api/products/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
		ResponseEntity<Void> update(@PathVariable("id") long id, @RequestBody(required = false) String body) {
			broadcast(id);
			return ResponseEntity.noContent().build();
		}

		void broadcast(long n) {
			String frame = "id:raw-" + this.sequence.incrementAndGet() + "\nevent:message\ndata:" + notificationJson(n)
					+ "\n\n";
			Frame event = new Frame(n, frame);
			for (int i = 0; i < WRITERS; i++) {
				this.pending.get(i).add(event);
				schedule(i);
			}
		}

		private void schedule(int writer) {
			if (this.scheduled[writer].compareAndSet(false, true)) {
				this.writers[writer].execute(() -> drain(writer));
			}
		}

		private void drain(int writer) {
			Queue<Frame> queue = this.pending.get(writer);
			StringBuilder batch = new StringBuilder();
			// The same events, by product, for the streams of one product.
			Map<Long, StringBuilder> byProduct = this.someByProduct ? new HashMap<>() : null;
			int events = 0;
			Frame frame;
			while (events < BATCH_EVENTS && batch.length() < BATCH_BYTES && (frame = queue.poll()) != null) {
				batch.append(frame.text());
				if (byProduct != null) {
					byProduct.computeIfAbsent(frame.product(), (k) -> new StringBuilder()).append(frame.text());
				}
				events++;
			}
			if (events > 0) {
				Set<ResponseBodyEmitter.DataWithMediaType> items = Set
					.of(new ResponseBodyEmitter.DataWithMediaType(batch.toString(), UTF8_TEXT));
				Map<Long, Set<ResponseBodyEmitter.DataWithMediaType>> itemsByProduct = new HashMap<>();
				if (byProduct != null) {
					byProduct.forEach((product, text) -> itemsByProduct.put(product,
							Set.of(new ResponseBodyEmitter.DataWithMediaType(text.toString(), UTF8_TEXT))));
				}
				Map<SseEmitter, Long> slice = this.slices.get(writer);
				this.running.acquireUninterruptibly();
				try {
					for (Map.Entry<SseEmitter, Long> entry : slice.entrySet()) {
						SseEmitter emitter = entry.getKey();
						Set<ResponseBodyEmitter.DataWithMediaType> due = (entry.getValue() == 0) ? items
								: itemsByProduct.get(entry.getValue());
						if (due == null) {
							continue;
						}
						try {
							emitter.send(due);
						}
						catch (IOException | IllegalStateException ex) {
							slice.remove(emitter);
						}
					}
				}
				finally {
					this.running.release();
				}
			}
			this.scheduled[writer].set(false);
			if (!queue.isEmpty()) {
				schedule(writer);
			}
		}

		/** An event's bytes and the product it is about. */
		private record Frame(long product, String text) {
		}

	}

}
