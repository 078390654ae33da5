package io.github.mcpsubscriptions.test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.jspecify.annotations.Nullable;

/**
 * What the tests' own servers (Redis, PostgreSQL) share: free loopback ports, directories
 * of their own, binaries taken out of the test class path, and processes stopped by their
 * PID (never by name) when the JVM ends.
 */
public final class ServiceProcesses {

	private ServiceProcesses() {
	}

	/**
	 * A free port on loopback.
	 * @return the port
	 */
	public static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	/**
	 * A new temporary directory that other users may enter (an unprivileged PostgreSQL reads
	 * its binaries there).
	 * @param prefix the start of its name
	 * @return the directory
	 */
	public static Path directory(String prefix) throws IOException {
		Path directory = Files.createTempDirectory(prefix);
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
		return directory;
	}

	/**
	 * Removes a directory when the JVM ends.
	 * @param directory the directory
	 */
	public static void deleteOnExit(Path directory) {
		Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(directory), "delete-" + directory));
	}

	/**
	 * Copies an executable from the test class path.
	 * @param resource its name on the class path
	 * @param target the file to write
	 * @return the file, executable
	 */
	public static Path executable(String resource, Path target) throws IOException {
		try (InputStream in = resource(resource)) {
			Files.copy(in, target);
		}
		Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
		return target;
	}

	/**
	 * Unpacks a {@code .txz} archive of the test class path, keeping modes and links.
	 * @param resource its name on the class path
	 * @param target the directory to unpack into
	 */
	public static void untarXz(String resource, Path target) throws IOException {
		try (InputStream in = resource(resource);
				TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(in))) {
			TarArchiveEntry entry;
			while ((entry = tar.getNextEntry()) != null) {
				Path file = target.resolve(entry.getName()).normalize();
				if (!file.startsWith(target)) {
					throw new IOException("Entry outside the archive's directory: " + entry.getName());
				}
				if (entry.isDirectory()) {
					Files.createDirectories(file);
					continue;
				}
				Files.createDirectories(file.getParent());
				if (entry.isSymbolicLink()) {
					Files.createSymbolicLink(file, Path.of(entry.getLinkName()));
				}
				else if (entry.isLink()) {
					Files.createLink(file, target.resolve(entry.getLinkName()));
				}
				else {
					Files.copy(tar, file);
					Files.setPosixFilePermissions(file, permissions(entry.getMode()));
				}
			}
		}
	}

	/**
	 * Whether the JVM runs as root, where PostgreSQL refuses to run.
	 * @return whether the user id is 0
	 */
	public static boolean runsAsRoot() {
		try {
			return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
		}
		catch (IOException | UnsupportedOperationException | IllegalArgumentException ex) {
			// No /proc (macOS): go by the user's name.
			return "root".equals(System.getProperty("user.name"));
		}
	}

	/**
	 * Starts a process whose output goes to a log file.
	 * @param command the command
	 * @param directory its working directory
	 * @param log the file its output is appended to
	 * @return the process
	 */
	public static Process start(List<String> command, Path directory, Path log) throws IOException {
		return new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
			.start();
	}

	/**
	 * Runs a command to its end.
	 * @param command the command
	 * @param directory its working directory
	 * @param log the file its output is appended to
	 * @throws IllegalStateException if it fails, with the end of its log
	 */
	public static void run(List<String> command, Path directory, Path log) throws IOException, InterruptedException {
		Process process = start(command, directory, log);
		if (!process.waitFor(120, TimeUnit.SECONDS)) {
			stop(process);
			throw new IllegalStateException(command + " did not end within 120 s: " + tail(log));
		}
		if (process.exitValue() != 0) {
			throw new IllegalStateException(command + " failed (exit " + process.exitValue() + "): " + tail(log));
		}
	}

	/**
	 * Stops a process when the JVM ends, then removes its directory (one hook: hooks run
	 * at once, and the directory must outlive the process).
	 * @param process the process
	 * @param directory its directory
	 */
	public static void stopOnExit(Process process, Path directory) {
		stopOnExit(process, null, directory);
	}

	/**
	 * Stops a process when the JVM ends with a signal of its own first, then removes its
	 * directory.
	 * @param process the process
	 * @param signal the signal that stops it at once ({@code INT} for PostgreSQL, whose
	 * {@code TERM} waits for its clients to leave), or {@code null} for {@code TERM}
	 * @param directory its directory
	 */
	public static void stopOnExit(Process process, @Nullable String signal, Path directory) {
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			stop(process, signal);
			deleteTree(directory);
		}, "stop-" + process.pid()));
	}

	/**
	 * Stops a process and what it started, by their PIDs: politely first (SIGTERM), then
	 * for good.
	 * @param process the process
	 */
	public static void stop(Process process) {
		stop(process, null);
	}

	private static void stop(Process process, @Nullable String signal) {
		List<ProcessHandle> children = process.descendants().toList();
		if (signal == null || !signal(process, signal)) {
			process.destroy();
		}
		try {
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				process.waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			process.destroyForcibly();
		}
		children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
	}

	private static boolean signal(Process process, String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
			return kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * The last lines of a log, for a failure's message.
	 * @param log the file
	 * @return its end
	 */
	public static String tail(Path log) {
		try {
			List<String> lines = Files.readAllLines(log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
		}
		catch (IOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

	/**
	 * Removes a directory and everything in it, quietly.
	 * @param root the directory
	 */
	public static void deleteTree(Path root) {
		if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
			return;
		}
		try (var files = Files.walk(root)) {
			files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
		}
		catch (IOException | RuntimeException ex) {
			// Left in the temporary directory: nothing depends on it any more.
		}
	}

	private static InputStream resource(String name) throws IOException {
		InputStream in = ServiceProcesses.class.getClassLoader().getResourceAsStream(name);
		if (in == null) {
			throw new IOException(name + " is not on the test class path");
		}
		return in;
	}

	private static Set<PosixFilePermission> permissions(int mode) {
		StringBuilder text = new StringBuilder();
		String letters = "rwxrwxrwx";
		for (int bit = 8; bit >= 0; bit--) {
			text.append(((mode & (1 << bit)) != 0) ? letters.charAt(8 - bit) : '-');
		}
		return PosixFilePermissions.fromString(text.toString());
	}

}
