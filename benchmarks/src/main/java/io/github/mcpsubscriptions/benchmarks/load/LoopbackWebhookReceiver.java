package io.github.mcpsubscriptions.benchmarks.load;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

/**
 * A webhook endpoint over HTTPS on loopback for the events harness, with a certificate
 * made at start by {@code keytool} ({@code localhost}, {@code 127.0.0.1}): it answers the
 * verification challenge and hands every other POST, with its arrival time, to a
 * consumer. It checks no signature (the harness measures delivery, the tests check
 * signatures), but counts a {@code webhook-id} that arrives twice at one path.
 */
final class LoopbackWebhookReceiver implements AutoCloseable {

	private static final String PASSWORD = "changeit";

	private static final Pattern CHALLENGE = Pattern.compile("\"type\":\"verification\".*\"challenge\":\"([^\"]+)\"");

	/** Told of each delivery: the path it was posted to, its body, when it arrived. */
	interface Deliveries {

		void delivered(String path, String body, long arrivedAtNanos);

	}

	private final HttpsServer server;

	private final ExecutorService executor;

	private final Path certificate;

	private final Deliveries deliveries;

	private final Set<String> webhookIds = ConcurrentHashMap.newKeySet();

	private final AtomicInteger duplicates = new AtomicInteger();

	/**
	 * The harness's clock for arrivals, in nanoseconds: the one its other receivers use.
	 */
	private final LongSupplier clock;

	LoopbackWebhookReceiver(Path directory, int threads, LongSupplier clock, Deliveries deliveries) throws Exception {
		this.clock = clock;
		this.deliveries = deliveries;
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
		this.executor = Executors.newFixedThreadPool(threads);
		this.server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setHttpsConfigurator(new HttpsConfigurator(context));
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::receive);
		this.server.start();
	}

	/** The certificate to trust, PEM. */
	Path certificate() {
		return this.certificate;
	}

	String url(String path) {
		return "https://localhost:" + this.server.getAddress().getPort() + path;
	}

	/**
	 * How many deliveries repeated a {@code webhook-id} already received at their path.
	 */
	int duplicates() {
		return this.duplicates.get();
	}

	private void receive(HttpExchange exchange) throws IOException {
		try (exchange) {
			long at = this.clock.getAsLong();
			String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
			Matcher challenge = CHALLENGE.matcher(body);
			if (challenge.find()) {
				byte[] answer = ("{\"challenge\":\"" + challenge.group(1) + "\"}").getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().set("Content-Type", "application/json");
				exchange.sendResponseHeaders(200, answer.length);
				exchange.getResponseBody().write(answer);
				return;
			}
			String path = exchange.getRequestURI().getPath();
			String id = exchange.getRequestHeaders().getFirst("webhook-id");
			if (id != null && !this.webhookIds.add(path + " " + id)) {
				this.duplicates.incrementAndGet();
			}
			this.deliveries.delivered(path, body, at);
			exchange.sendResponseHeaders(204, -1);
		}
	}

	private static void keytool(String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (process.waitFor() != 0) {
			throw new IllegalStateException("keytool failed: " + output);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
