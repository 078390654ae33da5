package io.github.mcpsubscriptions.tester;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads the {@code data} of server-sent events, skipping comments and priming events
 * (empty data), as MCP clients do.
 */
final class SseReader {

	private SseReader() {
	}

	/**
	 * Reads a live stream on its own daemon thread until it ends.
	 * @param body the stream
	 * @param name the thread's name
	 * @param onData called with each event's data
	 * @param onEnd called once when the stream has ended, by either side
	 */
	static void start(InputStream body, String name, Consumer<String> onData, Runnable onEnd) {
		Thread reader = new Thread(() -> {
			try {
				read(new InputStreamReader(body, StandardCharsets.UTF_8), onData);
			}
			catch (IOException ex) {
				// Closed by either side: that is the stream's end.
			}
			finally {
				onEnd.run();
			}
		}, name);
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Reads a complete stream, such as a POST answered with {@code text/event-stream}.
	 * @param body the stream's text
	 * @return each event's data
	 */
	static List<String> readAll(String body) {
		List<String> data = new ArrayList<>();
		try {
			read(new StringReader(body), data::add);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		return data;
	}

	private static void read(Reader source, Consumer<String> onData) throws IOException {
		try (BufferedReader reader = new BufferedReader(source)) {
			StringBuilder data = null;
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.isEmpty()) {
					if (data != null && !data.isEmpty()) {
						onData.accept(data.toString());
					}
					data = null;
				}
				else if (line.startsWith("data:")) {
					String value = line.substring(5);
					value = value.startsWith(" ") ? value.substring(1) : value;
					data = (data != null) ? data.append('\n').append(value) : new StringBuilder(value);
				}
			}
			if (data != null && !data.isEmpty()) {
				onData.accept(data.toString());
			}
		}
	}

}
