package io.github.mcpsubscriptions.cluster;

import java.io.IOException;
import java.net.InetAddress;
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
 * A cluster node in a JVM of its own (the test's class path), for the faults that need a
 * real process: {@code kill -9}, a pause ({@code SIGSTOP}), a small heap. Every signal
 * goes to the PID this object started; its log goes with it on close.
 */
final class NodeProcess implements AutoCloseable {

	private final int port;

	private final Path log;

	private final Process process;

	NodeProcess(List<String> jvmOptions, String... arguments) throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			this.port = socket.getLocalPort();
		}
		this.log = Files.createTempFile("mcp-node-", ".log");
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-XX:TieredStopAtLevel=1", "-Xss512k"));
		command.addAll(jvmOptions);
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), NodeProcess.class.getName()));
		for (String argument : arguments) {
			if (!argument.startsWith("--server.port=")) {
				command.add(argument);
			}
		}
		command.add("--server.port=" + this.port);
		command.add("--spring.main.banner-mode=off");
		this.process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(this.log.toFile()).start();
		McpTestClient client = client();
		await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
			if (!this.process.isAlive()) {
				throw new IllegalStateException("The node ended at start-up:\n" + Files.readString(this.log));
			}
			try {
				return client.stateless("server/discover", "").statusCode() == 200;
			}
			catch (IOException ex) {
				return false;
			}
		});
	}

	public static void main(String[] args) {
		new SpringApplication(McpTestApplication.class, ClusterNodes.Resources.class, TestUsers.class).run(args);
	}

	McpTestClient client() {
		return new McpTestClient(this.port);
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/** {@code kill -9}. */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

	/** Stop the JVM ({@code SIGSTOP}), as a long GC pause or a starved machine would. */
	void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	void resume() throws IOException, InterruptedException {
		signal("CONT");
	}

	private void signal(String signal) throws IOException, InterruptedException {
		RedisServerProcess.run(List.of("kill", "-" + signal, Long.toString(this.process.pid())));
	}

	String log() throws IOException {
		return Files.readString(this.log);
	}

	@Override
	public void close() throws Exception {
		kill();
		Files.deleteIfExists(this.log);
	}

}
