package io.github.mcpsubscriptions.tester;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A webhook endpoint for tests of the Events extension's webhook delivery (draft
 * SEP-3415): an HTTPS server on a free loopback port, with a certificate made for it at
 * start ({@code CN=localhost}, names {@code localhost} and {@code 127.0.0.1}, by the
 * JDK's {@code keytool}). It answers the endpoint verification, verifies the Standard
 * Webhooks signature of every request ({@code webhook-id}, {@code webhook-timestamp},
 * {@code webhook-signature} {@code v1,} HMAC-SHA256) with the secrets it knows, ignores a
 * {@code webhook-id} it took before for the same subscription, and records the rest in
 * order of arrival for a test to await.
 * <p>
 * The server under test posts only to {@code https} URLs whose certificate it trusts and
 * whose address it allows: {@link #serverProperties()} are the properties that make it
 * trust this receiver and allow loopback (in a {@code @DynamicPropertySource}, say).
 * Secrets come from {@link #newSecret()}; a request signed with none of them is answered
 * {@code 401} and listed in {@link #rejected()}.
 *
 * <pre class="code">
 * static McpWebhookReceiver receiver = McpWebhookReceiver.start();
 *
 * &#64;DynamicPropertySource
 * static void trustReceiver(DynamicPropertyRegistry registry) {
 *     receiver.serverProperties().forEach((name, value) -&gt; registry.add(name, () -&gt; value));
 * }
 *
 * // events/subscribe with "delivery": {"mode": "webhook", "url": receiver.url(), "secret": receiver.newSecret()}
 * McpWebhookReceiver.Delivery delivery = receiver.awaitDelivery();
 * </pre>
 *
 * @since 0.1.0
 */
public final class McpWebhookReceiver implements AutoCloseable {

	/** The path of {@link #url()}. */
	public static final String PATH = "/mcp-events";

	/** The SSL bundle {@link #serverProperties()} defines. */
	public static final String SSL_BUNDLE = "mcp-webhook-receiver";

	/** How far a request's {@code webhook-timestamp} may be from now. */
	private static final Duration TOLERANCE = Duration.ofMinutes(5);

	private static final String PASSWORD = "changeit";

	private static final SecureRandom random = new SecureRandom();

	private final HttpsServer server;

	private final ExecutorService executor = Executors.newFixedThreadPool(4);

	private final Path directory;

	private final Path certificate;

	private final Clock clock;

	private final Set<String> secrets = ConcurrentHashMap.newKeySet();

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition arrived = this.lock.newCondition();

	private final List<Delivery> deliveries = new ArrayList<>();

	private final Set<String> taken = new HashSet<>();

	private final List<String> rejected = new CopyOnWriteArrayList<>();

	private int verifications;

	private int duplicates;

	private int read;

	private volatile Duration timeout = Duration.ofSeconds(McpTester.DEFAULT_TIMEOUT_SECONDS);

	private McpWebhookReceiver(Path directory, Clock clock) throws IOException, GeneralSecurityException {
		this.directory = directory;
		this.clock = clock;
		Path keystore = directory.resolve("receiver.p12");
		this.certificate = directory.resolve("receiver.crt");
		keytool("-genkeypair", "-alias", "receiver", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
				"CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-keystore",
				keystore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
		keytool("-exportcert", "-rfc", "-alias", "receiver", "-keystore", keystore.toString(), "-storetype", "PKCS12",
				"-storepass", PASSWORD, "-file", this.certificate.toString());
		KeyStore keys = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(keystore)) {
			keys.load(in, PASSWORD.toCharArray());
		}
		KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keyManagers.init(keys, PASSWORD.toCharArray());
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(keyManagers.getKeyManagers(), null, null);
		this.server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setHttpsConfigurator(new HttpsConfigurator(context));
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	/**
	 * Starts a receiver on a free loopback port, its keystore and certificate in a
	 * directory of its own (removed by {@link #close()}).
	 * @return the receiver
	 * @throws IllegalStateException if it cannot start (the JDK's {@code keytool} is
	 * missing, say)
	 */
	public static McpWebhookReceiver start() {
		return start(Clock.systemUTC());
	}

	static McpWebhookReceiver start(Clock clock) {
		try {
			return new McpWebhookReceiver(Files.createTempDirectory("mcp-webhook-receiver"), clock);
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalStateException("The webhook receiver could not start: " + ex, ex);
		}
	}

	private static void keytool(String... arguments) throws IOException {
		List<String> command = new ArrayList<>();
		Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
		command.add(keytool.toString());
		command.addAll(List.of(arguments));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
				throw new IOException(keytool + " failed: " + output);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while making the receiver's certificate", ex);
		}
	}

	/**
	 * Waits at most this long in the {@code await} methods (10 s unless set).
	 * @param timeout the timeout
	 * @return this receiver
	 */
	public McpWebhookReceiver withTimeout(Duration timeout) {
		this.timeout = timeout;
		return this;
	}

	/**
	 * The receiver's URL for subscriptions: {@code https://localhost:<port>/mcp-events}.
	 * @return the URL
	 */
	public String url() {
		return url(PATH);
	}

	/**
	 * A URL of this receiver, by the name its certificate carries; every path is answered
	 * alike and recorded in {@link Delivery#path()}.
	 * @param path the path, starting with {@code /}
	 * @return the URL
	 */
	public String url(String path) {
		return "https://localhost:" + port() + path;
	}

	/**
	 * The port it listens on, on loopback.
	 * @return the port
	 */
	public int port() {
		return this.server.getAddress().getPort();
	}

	/**
	 * The receiver's certificate, PEM: what the server under test must trust.
	 * @return the file
	 */
	public Path certificate() {
		return this.certificate;
	}

	/**
	 * The properties that let the server under test post to this receiver: an SSL bundle
	 * ({@value #SSL_BUNDLE}) that trusts its certificate, named by
	 * {@code mcp.events.webhooks.ssl-bundle}, and loopback in
	 * {@code mcp.events.webhooks.allowed-networks}. An application with an SSL bundle of
	 * its own for webhooks adds {@link #certificate()} to that bundle's trust instead.
	 * @return the properties, by name
	 */
	public Map<String, String> serverProperties() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("spring.ssl.bundle.pem." + SSL_BUNDLE + ".truststore.certificate",
				"file:" + this.certificate.toAbsolutePath());
		properties.put("mcp.events.webhooks.ssl-bundle", SSL_BUNDLE);
		properties.put("mcp.events.webhooks.allowed-networks", "127.0.0.0/8,::1/128");
		return properties;
	}

	/**
	 * A new secret for a subscription ({@code whsec_} and the base64 of 32 random bytes),
	 * which this receiver verifies signatures with from now on.
	 * @return the secret, for {@code delivery.secret} of {@code events/subscribe}
	 */
	public String newSecret() {
		byte[] key = new byte[32];
		random.nextBytes(key);
		String secret = "whsec_" + Base64.getEncoder().encodeToString(key);
		this.secrets.add(secret);
		return secret;
	}

	/**
	 * Every delivery taken so far (events and {@code gap} and {@code terminated}
	 * envelopes, not verifications), in order of arrival.
	 * @return the deliveries
	 */
	public List<Delivery> deliveries() {
		this.lock.lock();
		try {
			return List.copyOf(this.deliveries);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Waits for the next delivery not returned by an {@code await} method before.
	 * @return the delivery
	 * @throws AssertionError if none arrives within the timeout
	 */
	public Delivery awaitDelivery() {
		return awaitDeliveries(1).get(0);
	}

	/**
	 * Waits for the next deliveries not returned by an {@code await} method before.
	 * @param count how many
	 * @return them, in order of arrival
	 * @throws AssertionError if fewer arrive within the timeout
	 */
	public List<Delivery> awaitDeliveries(int count) {
		Duration timeout = this.timeout;
		long remaining = timeout.toNanos();
		this.lock.lock();
		try {
			while (this.deliveries.size() < this.read + count) {
				if (remaining <= 0) {
					throw new AssertionError("Expected " + count + " more webhook deliveries within " + timeout
							+ ", got " + (this.deliveries.size() - this.read) + " (" + this.verifications
							+ " verifications answered, rejected: " + this.rejected + ")");
				}
				remaining = this.arrived.awaitNanos(remaining);
			}
			List<Delivery> next = List.copyOf(this.deliveries.subList(this.read, this.read + count));
			this.read += count;
			return next;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for webhook deliveries", ex);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * How many endpoint verifications it answered.
	 * @return the count
	 */
	public int verifications() {
		this.lock.lock();
		try {
			return this.verifications;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * How many requests repeated a {@code webhook-id} already taken for their
	 * subscription (retries of a delivery that had arrived): answered {@code 204}, not
	 * recorded again.
	 * @return the count
	 */
	public int duplicates() {
		this.lock.lock();
		try {
			return this.duplicates;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Why requests were refused ({@code 401} or {@code 400}): an unknown or missing
	 * signature, a stale timestamp, a missing header, a body that is not JSON.
	 * @return the reasons, in order
	 */
	public List<String> rejected() {
		return List.copyOf(this.rejected);
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			byte[] body = exchange.getRequestBody().readAllBytes();
			String refusal = refusal(exchange, body);
			if (refusal != null) {
				this.rejected.add(refusal);
				answer(exchange, refusal.startsWith("400") ? 400 : 401, null);
				return;
			}
			JsonNode json;
			try {
				json = McpTester.json.readTree(body);
			}
			catch (RuntimeException ex) {
				this.rejected.add("400: the body is not JSON");
				answer(exchange, 400, null);
				return;
			}
			if (!(json instanceof ObjectNode)) {
				this.rejected.add("400: the body is not a JSON object");
				answer(exchange, 400, null);
				return;
			}
			String type = json.path("type").isString() ? json.get("type").stringValue() : null;
			if ("verification".equals(type)) {
				this.lock.lock();
				try {
					this.verifications++;
				}
				finally {
					this.lock.unlock();
				}
				ObjectNode echo = McpTester.json.createObjectNode();
				echo.set("challenge", json.get("challenge"));
				answer(exchange, 200, echo.toString());
				return;
			}
			Delivery delivery = new Delivery(exchange.getRequestURI().getPath(),
					exchange.getRequestHeaders().getFirst("X-MCP-Subscription-Id"),
					exchange.getRequestHeaders().getFirst("webhook-id"),
					Instant.ofEpochSecond(Long.parseLong(exchange.getRequestHeaders().getFirst("webhook-timestamp"))),
					json);
			take(delivery);
			answer(exchange, 204, null);
		}
	}

	/** Why a request is refused, or {@code null} if it is signed with a known secret. */
	private @Nullable String refusal(HttpExchange exchange, byte[] body) {
		if (!"POST".equals(exchange.getRequestMethod())) {
			return "400: " + exchange.getRequestMethod() + " instead of POST";
		}
		String id = exchange.getRequestHeaders().getFirst("webhook-id");
		String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
		String signature = exchange.getRequestHeaders().getFirst("webhook-signature");
		String subscription = exchange.getRequestHeaders().getFirst("X-MCP-Subscription-Id");
		if (id == null || timestamp == null || signature == null || subscription == null) {
			return "400: a header of webhook-id, webhook-timestamp, webhook-signature, X-MCP-Subscription-Id is missing";
		}
		long seconds;
		try {
			seconds = Long.parseLong(timestamp);
		}
		catch (NumberFormatException ex) {
			return "400: webhook-timestamp is not a number of seconds";
		}
		if (Duration.between(Instant.ofEpochSecond(seconds), this.clock.instant()).abs().compareTo(TOLERANCE) > 0) {
			return "401: webhook-timestamp " + timestamp + " is more than " + TOLERANCE + " from now";
		}
		byte[] signed = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
		for (String secret : this.secrets) {
			byte[] expected = ("v1," + Base64.getEncoder().encodeToString(hmac(secret, signed, body)))
				.getBytes(StandardCharsets.UTF_8);
			for (String candidate : signature.split(" ")) {
				if (MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.UTF_8))) {
					return null;
				}
			}
		}
		return "401: webhook-signature of " + id + " verifies with none of the receiver's secrets";
	}

	private static byte[] hmac(String secret, byte[] prefix, byte[] body) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
			mac.update(prefix);
			return mac.doFinal(body);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private void take(Delivery delivery) {
		this.lock.lock();
		try {
			// Dedupe per subscription: one event may reach one URL for several.
			if (!this.taken.add(delivery.subscriptionId() + " " + delivery.webhookId())) {
				this.duplicates++;
				return;
			}
			this.deliveries.add(delivery);
			this.arrived.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	private static void answer(HttpExchange exchange, int status, @Nullable String body) throws IOException {
		if (body == null) {
			exchange.sendResponseHeaders(status, -1);
			return;
		}
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	/**
	 * Stops the server and removes its keystore and certificate.
	 */
	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
		try (Stream<Path> files = Files.list(this.directory)) {
			for (Path file : files.toList()) {
				Files.deleteIfExists(file);
			}
			Files.deleteIfExists(this.directory);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("The webhook receiver's files could not be removed", ex);
		}
	}

	/**
	 * A delivery as taken, its signature verified: an event occurrence, or a {@code gap}
	 * or {@code terminated} envelope.
	 *
	 * @param path the path it was posted to
	 * @param subscriptionId its {@code X-MCP-Subscription-Id}
	 * @param webhookId its {@code webhook-id} (the event's id, or {@code msg_<type>_…}
	 * for an envelope)
	 * @param sentAt its {@code webhook-timestamp}
	 * @param body its body
	 * @since 0.1.0
	 */
	public record Delivery(String path, String subscriptionId, String webhookId, Instant sentAt, JsonNode body) {

		/**
		 * What it is: {@code event}, or the envelope's {@code type} ({@code gap},
		 * {@code terminated}).
		 * @return the kind
		 */
		public String type() {
			JsonNode type = this.body.get("type");
			return (type != null && type.isString()) ? type.stringValue() : "event";
		}

		/**
		 * Whether it is an event occurrence (not an envelope).
		 * @return whether it is
		 */
		public boolean isEvent() {
			return "event".equals(type());
		}

		/**
		 * The event's type name, for an event.
		 * @return the name, or {@code null} for an envelope
		 */
		public @Nullable String name() {
			return text("name");
		}

		/**
		 * The event's stable id, for an event.
		 * @return the id, or {@code null} for an envelope
		 */
		public @Nullable String eventId() {
			return text("eventId");
		}

		/**
		 * The event's payload, for an event.
		 * @return the payload, or {@code null} for an envelope
		 */
		public @Nullable JsonNode data() {
			return this.body.get("data");
		}

		/**
		 * The cursor it carries (a safe watermark; a {@code gap}'s fresh position).
		 * @return the cursor, or {@code null}
		 */
		public @Nullable String cursor() {
			return text("cursor");
		}

		private @Nullable String text(String name) {
			JsonNode value = this.body.get(name);
			return (value != null && value.isString()) ? value.stringValue() : null;
		}

	}

}
