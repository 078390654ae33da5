package io.github.mcpsubscriptions.events;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A real webhook receiver over HTTPS on loopback, with a certificate made for the test by
 * {@code keytool} ({@code localhost}, {@code 127.0.0.1}). It records every request by
 * path, exactly as received, and answers by path:
 * <ul>
 * <li>a {@code verification} envelope: echoes the challenge, except under
 * {@code /wrong-echo/}, which echoes something else</li>
 * <li>{@code /fail-twice/}: {@code 500} to the first two other requests</li>
 * <li>{@code /slow-once/}: the first other request waits past the client's timeout</li>
 * <li>{@code /redirect/}: {@code 302} to {@code /redirected/}</li>
 * <li>{@code /gone/}: {@code 410} to every other request</li>
 * <li>anything else: {@code 204}</li>
 * </ul>
 */
public final class HttpsReceiver implements AutoCloseable {

	private static final String PASSWORD = "changeit";

	private final HttpsServer server;

	private final ExecutorService executor = Executors.newFixedThreadPool(4);

	private final Path certificate;

	private final Map<String, List<Received>> received = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> answered = new ConcurrentHashMap<>();

	private final long slowMillis;

	private HttpsReceiver(Path directory, long slowMillis) throws Exception {
		this.slowMillis = slowMillis;
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
	 * Start a receiver.
	 * @param directory where its keystore and certificate go
	 * @param slowMillis how long {@code /slow-once/} waits
	 * @return the receiver
	 */
	public static HttpsReceiver start(Path directory, long slowMillis) throws Exception {
		return new HttpsReceiver(directory, slowMillis);
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

	/** The receiver's certificate, PEM: what the SSL bundle trusts. */
	public Path certificate() {
		return this.certificate;
	}

	public int port() {
		return this.server.getAddress().getPort();
	}

	/**
	 * A URL of this receiver by the name its certificate carries.
	 * @param path the path
	 * @return the URL
	 */
	public String url(String path) {
		return "https://localhost:" + port() + path;
	}

	/**
	 * What one path received, in order of arrival.
	 * @param path the path
	 * @return the requests
	 */
	public List<Received> at(String path) {
		return this.received.getOrDefault(path, List.of());
	}

	/**
	 * What one path received besides verification envelopes.
	 * @param path the path
	 * @return the requests
	 */
	public List<Received> deliveriesAt(String path) {
		return at(path).stream().filter((request) -> !request.isVerification()).toList();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			byte[] body = exchange.getRequestBody().readAllBytes();
			Map<String, String> headers = new ConcurrentHashMap<>();
			exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.get(0)));
			Received request = new Received(exchange.getRequestMethod(), path, headers, body);
			this.received.computeIfAbsent(path, (key) -> new CopyOnWriteArrayList<>()).add(request);
			if (path.startsWith("/redirect/")) {
				// Verification included: nothing may follow it.
				exchange.getResponseHeaders().set("Location", url("/redirected" + path));
				answer(exchange, 302, null);
				return;
			}
			if (request.isVerification()) {
				String challenge = path.startsWith("/wrong-echo/") ? "not-the-nonce"
						: request.json().get("challenge").stringValue();
				answer(exchange, 200, "{\"challenge\":\"" + challenge + "\"}");
				return;
			}
			int count = this.answered.computeIfAbsent(path, (key) -> new AtomicInteger()).incrementAndGet();
			if (path.startsWith("/fail-twice/") && count <= 2) {
				answer(exchange, 500, "{\"oops\":\"secret internals\"}");
			}
			else if (path.startsWith("/slow-once/") && count == 1) {
				Thread.sleep(this.slowMillis);
				answer(exchange, 204, null);
			}
			else if (path.startsWith("/gone/")) {
				answer(exchange, 410, null);
			}
			else {
				answer(exchange, 204, null);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
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

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	/**
	 * A request as received.
	 *
	 * @param method its method
	 * @param path its path
	 * @param headers its headers, by lower-case name
	 * @param body its raw body
	 */
	public record Received(String method, String path, Map<String, String> headers, byte[] body) {

		public JsonNode json() {
			return McpTestClient.json(new String(this.body, StandardCharsets.UTF_8));
		}

		public String text() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

		public boolean isVerification() {
			JsonNode type = json().get("type");
			return type != null && type.isString() && type.stringValue().equals("verification");
		}

		public String header(String name) {
			return this.headers.get(name.toLowerCase());
		}

	}

}
