package io.github.mcpsubscriptions.cluster;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A redis-server of a test's own on a free loopback port, which the test can kill and
 * start again (keeping its data in an append-only file, as a restarted Redis with
 * persistence does). Never the machine's Redis.
 */
final class RedisServerProcess implements AutoCloseable {

	private final int port;

	private final Path directory;

	private Process process;

	RedisServerProcess() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			this.port = socket.getLocalPort();
		}
		this.directory = Files.createTempDirectory("mcp-redis-");
		start();
	}

	int port() {
		return this.port;
	}

	void start() throws IOException {
		this.process = new ProcessBuilder("redis-server", "--port", Integer.toString(this.port), "--bind",
				"127.0.0.1", "--save", "", "--appendonly", "yes", "--dir", this.directory.toString())
			.redirectErrorStream(true)
			.redirectOutput(this.directory.resolve("redis.log").toFile())
			.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> RedisTestSupport.ping("127.0.0.1", this.port));
	}

	/**
	 * Start it again without its data, as a Redis without persistence (or that lost its
	 * disk) restarts.
	 */
	void startEmpty() throws IOException {
		try (var files = Files.list(this.directory)) {
			for (Path file : files.toList()) {
				try (var tree = Files.walk(file)) {
					tree.sorted(java.util.Comparator.reverseOrder()).forEach((each) -> each.toFile().delete());
				}
			}
		}
		start();
	}

	/** Kill it by its PID, as a crash would. */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

	/** Stop it answering without closing its connections (SIGSTOP), as a hung Redis does. */
	void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	/** Let a paused Redis answer again (SIGCONT). */
	void resume() throws IOException, InterruptedException {
		signal("CONT");
	}

	private void signal(String name) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(this.process.pid())).start();
		if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
			throw new IllegalStateException("Could not send SIG" + name + " to redis-server " + this.process.pid());
		}
	}

	@Override
	public void close() throws InterruptedException, IOException {
		kill();
		try (var files = Files.walk(this.directory)) {
			files.sorted(java.util.Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
		}
	}

}
