package io.github.mcpsubscriptions.benchmarks.load;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample application started from its executable jar on a free loopback port, for the
 * harnesses that measure it from outside: started with the arguments given, awaited until
 * its health answers, stopped (by its PID, the one process this started) when closed.
 */
final class SampleProcess implements AutoCloseable {

	private final HttpClient http = HttpClient.newHttpClient();

	private final Process process;

	private final URI base;

	private SampleProcess(Process process, URI base) {
		this.process = process;
		this.base = base;
	}

	/**
	 * Start the sample and wait until {@code /actuator/health} answers 200.
	 * @param jar the sample's executable jar
	 * @param name a name for its working directory and log
	 * @param arguments the Spring Boot arguments ({@code --name=value}) after the port's
	 * @return the running sample
	 * @throws Exception if it ends or does not answer within 180 s
	 */
	static SampleProcess start(String jar, String name, List<String> arguments) throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		Path work = Files.createTempDirectory(name);
		List<String> command = new ArrayList<>(List.of(System.getProperty("java.home") + "/bin/java", "-Xmx1g", "-jar",
				jar, "--server.address=127.0.0.1", "--server.port=" + port, "--spring.main.banner-mode=off",
				"--sample.files.root=" + work.resolve("files")));
		command.addAll(arguments);
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(work.resolve("sample.log").toFile())
			.start();
		System.err.println("sample: pid " + process.pid() + ", log " + work.resolve("sample.log"));
		SampleProcess sample = new SampleProcess(process, URI.create("http://127.0.0.1:" + port));
		try {
			sample.awaitHealth();
		}
		catch (Exception ex) {
			sample.close();
			throw ex;
		}
		return sample;
	}

	private void awaitHealth() throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException("The sample ended during start-up; see its log");
			}
			try {
				if (get("/actuator/health", null).statusCode() == 200) {
					return;
				}
			}
			catch (IOException ex) {
				// Not listening yet.
			}
			Thread.sleep(250);
		}
		throw new IllegalStateException("The sample did not answer within 180 s");
	}

	/** Where it listens, {@code http://127.0.0.1:<port>}. */
	URI base() {
		return this.base;
	}

	/**
	 * A GET of the sample.
	 * @param path the path
	 * @param bearer a bearer token, or {@code null}
	 * @return the response
	 */
	HttpResponse<String> get(String path, String bearer) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(this.base.resolve(path)).timeout(Duration.ofSeconds(5));
		if (bearer != null) {
			request.header("Authorization", "Bearer " + bearer);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * The statistics of a meter of the sample, from its Actuator; none if it has none.
	 * @param name the meter's name
	 * @param bearer a bearer token that may read the Actuator, or {@code null}
	 * @return statistic to value
	 */
	Map<String, Double> meter(String name, String bearer) throws Exception {
		HttpResponse<String> response = get("/actuator/metrics/" + name, bearer);
		Map<String, Double> statistics = new LinkedHashMap<>();
		if (response.statusCode() != 200) {
			return statistics;
		}
		Matcher matcher = Pattern.compile("\"statistic\":\"(\\w+)\",\"value\":([-0-9.E]+)").matcher(response.body());
		while (matcher.find()) {
			statistics.put(matcher.group(1), Double.parseDouble(matcher.group(2)));
		}
		return statistics;
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

}
