package io.github.mcpsubscriptions.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.test.RespClient;
import io.github.mcpsubscriptions.test.TestRedis;

import static org.awaitility.Awaitility.await;

/**
 * A redis-server of a test's own on a free loopback port, which the test can kill, pause
 * and start again (keeping its data in an append-only file, as a restarted Redis with
 * persistence does, unless wiped). The binary is the run's
 * ({@link TestRedis#executable()}), not one on the PATH. Never the machine's Redis: every
 * signal goes to the PID of the process this object started, and its temporary directory
 * goes on close.
 */
final class RedisServerProcess implements AutoCloseable {

	private static final Duration START = Duration.ofSeconds(10);

	private final int port;

	private final Path directory;

	private final List<String> command;

	private Process process;

	/** A standalone Redis. */
	RedisServerProcess() throws IOException {
		this(List.of());
	}

	/**
	 * A Redis with further settings.
	 * @param settings further {@code --name value} arguments of redis-server
	 */
	RedisServerProcess(List<String> settings) throws IOException {
		this(freePort(false), null, settings);
	}

	private RedisServerProcess(int port, String configuration, List<String> settings) throws IOException {
		this.port = port;
		this.directory = Files.createTempDirectory("mcp-redis-");
		List<String> command = new ArrayList<>();
		command.add(TestRedis.executable().toString());
		if (configuration != null) {
			Path file = this.directory.resolve("redis.conf");
			Files.writeString(file, configuration.replace("${dir}", this.directory.toString()));
			command.add(file.toString());
		}
		command.addAll(
				List.of("--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", this.directory.toString()));
		if (configuration == null) {
			command.addAll(List.of("--save", "", "--appendonly", "yes"));
		}
		command.addAll(settings);
		this.command = List.copyOf(command);
		start();
	}

	/**
	 * A Redis with cluster mode on, on a port whose cluster bus port (+10000) is free
	 * too.
	 * @return the server, not yet part of a cluster
	 */
	static RedisServerProcess clusterNode() throws IOException {
		return new RedisServerProcess(freePort(true), null, List.of("--cluster-enabled", "yes", "--cluster-config-file",
				"nodes.conf", "--cluster-node-timeout", "2000", "--appendonly", "no"));
	}

	/**
	 * A Sentinel watching one master, quick to fail over.
	 * @param masterName the name of the master set
	 * @param masterPort the master's port on loopback
	 * @return the sentinel
	 */
	static RedisServerProcess sentinel(String masterName, int masterPort) throws IOException {
		// Sentinel rewrites its configuration file, so it gets one of its own.
		String configuration = """
				sentinel resolve-hostnames no
				sentinel monitor %1$s 127.0.0.1 %2$d 1
				sentinel down-after-milliseconds %1$s 1000
				sentinel failover-timeout %1$s 5000
				sentinel parallel-syncs %1$s 1
				""".formatted(masterName, masterPort);
		return new RedisServerProcess(freePort(false), configuration, List.of("--sentinel"));
	}

	int port() {
		return this.port;
	}

	String address() {
		return "127.0.0.1:" + this.port;
	}

	void start() throws IOException {
		this.process = new ProcessBuilder(this.command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(this.directory.resolve("redis.log").toFile()))
			.start();
		await().atMost(START).until(() -> RedisTestSupport.ping("127.0.0.1", this.port));
	}

	/** Kill it by its PID, as a crash would. */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

	/** Kill it and start it again with no data: a Redis restarted empty. */
	void restartEmpty() throws IOException, InterruptedException {
		kill();
		startEmpty();
	}

	/**
	 * Start it again, after {@link #kill()}, without its data, as a Redis without
	 * persistence (or that lost its disk) restarts.
	 */
	void startEmpty() throws IOException {
		try (var files = Files.list(this.directory)) {
			for (Path file : files.filter((file) -> !file.getFileName().toString().startsWith("redis.")).toList()) {
				deleteTree(file);
			}
		}
		start();
	}

	/**
	 * Stop the process (SIGSTOP), as a stalled machine would: connections stay open,
	 * nothing answers.
	 */
	void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	/** Let a paused process go on (SIGCONT). */
	void resume() throws IOException, InterruptedException {
		signal("CONT");
	}

	private void signal(String signal) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(this.process.pid())).start();
		if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
			throw new IllegalStateException("kill -" + signal + " " + this.process.pid() + " failed");
		}
	}

	/**
	 * Sends one command to this server, over a connection of its own (no redis-cli).
	 * @param arguments the command and its arguments
	 * @return the reply as redis-cli prints it to a pipe: an array one element a line
	 * @throws IllegalStateException if Redis answered with an error
	 */
	String cli(String... arguments) throws IOException {
		return RespClient.send(this.port, arguments);
	}

	@Override
	public void close() throws InterruptedException, IOException {
		kill();
		deleteTree(this.directory);
	}

	private static void deleteTree(Path root) throws IOException {
		try (var files = Files.walk(root)) {
			files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
		}
	}

	private static int freePort(boolean withBus) throws IOException {
		for (int attempt = 0; attempt < 50; attempt++) {
			int port;
			try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
				port = socket.getLocalPort();
			}
			if (!withBus) {
				return port;
			}
			if (port + 10000 <= 65535) {
				try (ServerSocket bus = new ServerSocket(port + 10000, 1, InetAddress.getLoopbackAddress())) {
					return port;
				}
				catch (IOException ex) {
					// Taken: try another.
				}
			}
		}
		throw new IllegalStateException("No free port with a free cluster bus port");
	}

}
