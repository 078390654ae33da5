package io.github.mcpsubscriptions.cluster;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.TestUsers;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.SpringApplication;

import static org.awaitility.Awaitility.await;

/**
 * A cluster node in a JVM of its own (the test's class path, {@link ClusterNodes}'
 * resources), which a test can pause ({@code SIGSTOP}) and resume ({@code SIGCONT}) as a
 * long GC pause or a starved CPU would, and kill; with a heap as small as the test asks,
 * so that what one client can make a node hold is measured against a real heap limit.
 */
final class ClusterNodeProcess implements AutoCloseable {

	private static final HttpClient http = HttpClient.newHttpClient();

	/** The system property that names the application a node runs. */
	private static final String APPLICATION = "mcp.test.node-application";

	private final Process process;

	private final int port;

	private final Path output;

	private ClusterNodeProcess(Process process, int port, Path output) {
		this.process = process;
		this.port = port;
		this.output = output;
	}

	/**
	 * Start a node and wait until it answers.
	 * @param arguments its command-line arguments, as
	 * {@link RedisTestSupport#nodeArguments} gives them ({@code --server.port} is
	 * replaced)
	 * @return the running node
	 */
	static ClusterNodeProcess start(String... arguments) throws IOException {
		return startWithHeap("256m", arguments);
	}

	/**
	 * Start a node with a heap limit and wait until it answers; it exits on an
	 * {@link OutOfMemoryError}.
	 * @param maxHeap the {@code -Xmx} value, such as {@code 64m}
	 * @param arguments its command-line arguments, as {@link #start(String...)}
	 * @return the running node
	 */
	static ClusterNodeProcess startWithHeap(String maxHeap, String... arguments) throws IOException {
		return startWith(McpTestApplication.class, maxHeap, arguments);
	}

	/**
	 * Start a node of another application (with {@link ClusterNodes}' resources) and wait
	 * until it answers.
	 * @param application the application's class
	 * @param maxHeap the {@code -Xmx} value
	 * @param arguments its command-line arguments, as {@link #start(String...)}
	 * @return the running node
	 */
	static ClusterNodeProcess startWith(Class<?> application, String maxHeap, String... arguments) throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		Path output = Files.createTempFile("mcp-node-", ".log");
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + maxHeap,
						"-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1",
						"-D" + APPLICATION + "=" + application.getName(), "-cp", System.getProperty("java.class.path"),
						ClusterNodeProcess.class.getName()));
		for (String argument : arguments) {
			if (!argument.startsWith("--server.port=")) {
				command.add(argument);
			}
		}
		command.add("--server.port=" + port);
		command.add("--management.endpoints.web.exposure.include=health,metrics");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
		ClusterNodeProcess node = new ClusterNodeProcess(process, port, output);
		try {
			await().atMost(Duration.ofSeconds(240))
				.pollInterval(Duration.ofMillis(250))
				.ignoreExceptionsInstanceOf(IOException.class)
				.until(() -> {
					if (!process.isAlive()) {
						throw new IllegalStateException("The node exited:\n" + node.output());
					}
					return node.get("/actuator/health").statusCode() == 200;
				});
		}
		catch (Throwable ex) {
			// Awaitility may rethrow the condition's checked exception as it is.
			node.close();
			throw ex;
		}
		return node;
	}

	/**
	 * Run a node: the forked JVM's entry point.
	 * @param arguments the application's arguments
	 */
	public static void main(String[] arguments) {
		Class<?> application;
		try {
			application = Class.forName(System.getProperty(APPLICATION, McpTestApplication.class.getName()));
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
		new SpringApplication(application, ClusterNodes.Resources.class, TestUsers.class).run(arguments);
	}

	McpTestClient client() {
		return new McpTestClient(this.port);
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/** {@code kill -9}, as a crash would. */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

	/** Stop the node's JVM where it stands, every thread at once. */
	void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	/** Let a paused node's JVM run on. */
	void resume() throws IOException, InterruptedException {
		signal("CONT");
	}

	private void signal(String name) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(this.process.pid())).inheritIO().start();
		if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
			throw new IllegalStateException("kill -" + name + " failed");
		}
	}

	/**
	 * The value of a counter of the node.
	 * @param name the meter's name
	 * @return its count, or {@code -1} when the node has no such meter
	 */
	double counter(String name) throws IOException, InterruptedException {
		HttpResponse<String> response = get("/actuator/metrics/" + name);
		if (response.statusCode() == 404) {
			return -1;
		}
		JsonNode body = McpTestClient.json(response.body());
		return body.get("measurements").get(0).get("value").doubleValue();
	}

	HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	String output() {
		try {
			return Files.readString(this.output);
		}
		catch (IOException ex) {
			return "(no output: " + ex.getMessage() + ")";
		}
	}

	@Override
	public void close() {
		this.process.destroyForcibly();
		try {
			this.process.waitFor(10, TimeUnit.SECONDS);
			Files.deleteIfExists(this.output);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (IOException ex) {
			// A temporary file left behind is harmless.
		}
	}

}
