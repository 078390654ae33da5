package io.github.mcpsubscriptions.test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.testcontainers.DockerClientFactory;

/**
 * Whether the tests can start Testcontainers containers. Testcontainers is asked only
 * where a Docker environment is configured at all (a {@code DOCKER_HOST}, its own
 * settings file, or a Docker or Podman socket in a usual place): where there is none, its
 * probe logs an ERROR ("Could not find a valid Docker environment") into the build's
 * output, and the tests then start their own servers ({@link TestRedis}, {@link TestPostgres}).
 */
public final class DockerEnvironment {

	private DockerEnvironment() {
	}

	/**
	 * Whether Docker runs for Testcontainers.
	 * @return whether containers can be started
	 */
	public static boolean isAvailable() {
		if (!isConfigured()) {
			return false;
		}
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static boolean isConfigured() {
		if (System.getenv("DOCKER_HOST") != null) {
			return true;
		}
		Path home = Path.of(System.getProperty("user.home"));
		List<Path> places = new ArrayList<>(List.of(home.resolve(".testcontainers.properties"),
				Path.of("/var/run/docker.sock"), home.resolve(".docker/run/docker.sock"),
				home.resolve(".docker/desktop/docker.sock"), home.resolve(".colima/default/docker.sock"),
				home.resolve(".rd/docker.sock")));
		String runtime = System.getenv("XDG_RUNTIME_DIR");
		if (runtime != null) {
			places.add(Path.of(runtime, "docker.sock"));
			places.add(Path.of(runtime, "podman", "podman.sock"));
		}
		return places.stream().anyMatch(Files::exists);
	}

}
