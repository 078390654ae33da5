package io.github.mcpsubscriptions.cluster;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.TestUsers;

import org.springframework.boot.SpringApplication;

import static org.awaitility.Awaitility.await;

/**
 * A cluster node in a JVM of its own, with a heap as small as the test asks: what one
 * client can make a node hold is measured against a real heap limit, not guessed from
 * inside the test's JVM. It runs the same application as {@link ClusterNodes} and is
 * killed when closed.
 */
final class ClusterNodeProcess implements AutoCloseable {

	private final int port;

	private final Path log;

	private final Process process;

	/**
	 * Start a node and wait until it answers.
	 * @param maxHeap the {@code -Xmx} value, such as {@code 64m}
	 * @param arguments the node's arguments ({@link RedisTestSupport#nodeArguments})
	 */
	ClusterNodeProcess(String maxHeap, String... arguments) throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			this.port = socket.getLocalPort();
		}
		this.log = Files.createTempFile("mcp-node-", ".log");
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xmx" + maxHeap, "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
				ClusterNodeProcess.class.getName()));
		for (String argument : arguments) {
			if (!argument.startsWith("--server.port=")) {
				command.add(argument);
			}
		}
		command.add("--server.port=" + this.port);
		this.process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(this.log.toFile()).start();
		await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(this::answers);
	}

	private boolean answers() {
		if (!this.process.isAlive()) {
			throw new IllegalStateException("The node ended during start-up; see " + this.log);
		}
		try {
			client().post(new McpTestClient(this.port).initializeBody("2025-11-25"));
			return true;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	McpTestClient client() {
		return new McpTestClient(this.port);
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	Path log() {
		return this.log;
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

	/**
	 * The forked node's entry point.
	 * @param arguments the node's arguments
	 */
	public static void main(String[] arguments) {
		new SpringApplication(McpTestApplication.class, ClusterNodes.Resources.class, TestUsers.class).run(arguments);
	}

}
