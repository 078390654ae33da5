package io.github.mcpsubscriptions.test;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One Redis command over a socket of its own, in the Redis protocol (RESP2), so that tests
 * that set up or inspect servers need no {@code redis-cli}. The reply reads as
 * {@code redis-cli} prints it to a pipe: a string or a number as is, an array one element
 * a line, nil as nothing.
 */
public final class RespClient {

	private static final int TIMEOUT = 10_000;

	private RespClient() {
	}

	/**
	 * Sends one command to a Redis on loopback.
	 * @param port its port
	 * @param arguments the command and its arguments
	 * @return the reply, as text
	 * @throws IllegalStateException if Redis answered with an error
	 */
	public static String send(int port, String... arguments) throws IOException {
		return send("127.0.0.1", port, List.of(arguments));
	}

	/**
	 * Sends one command.
	 * @param host the host
	 * @param port the port
	 * @param arguments the command and its arguments
	 * @return the reply, as text
	 * @throws IllegalStateException if Redis answered with an error
	 */
	public static String send(String host, int port, List<String> arguments) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), TIMEOUT);
			socket.setSoTimeout(TIMEOUT);
			ByteArrayOutputStream request = new ByteArrayOutputStream();
			request.writeBytes(("*" + arguments.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
			for (String argument : arguments) {
				byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
				request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
				request.writeBytes(bytes);
				request.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
			}
			OutputStream out = socket.getOutputStream();
			request.writeTo(out);
			out.flush();
			return String.join("\n", reply(new BufferedInputStream(socket.getInputStream())));
		}
	}

	private static List<String> reply(InputStream in) throws IOException {
		String line = line(in);
		String rest = line.substring(1);
		return switch (line.charAt(0)) {
			case '+', ':' -> List.of(rest);
			case '-' -> throw new IllegalStateException("Redis answered: " + rest);
			case '$' -> {
				int length = Integer.parseInt(rest);
				if (length < 0) {
					yield List.of();
				}
				byte[] bytes = in.readNBytes(length + 2);
				yield List.of(new String(bytes, 0, length, StandardCharsets.UTF_8));
			}
			case '*' -> {
				List<String> elements = new ArrayList<>();
				for (int i = 0; i < Integer.parseInt(rest); i++) {
					elements.addAll(reply(in));
				}
				yield elements;
			}
			default -> throw new IOException("Not a Redis reply: " + line);
		};
	}

	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int previous = -1;
		int next;
		while ((next = in.read()) != -1) {
			if (previous == '\r' && next == '\n') {
				byte[] bytes = line.toByteArray();
				return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
			}
			line.write(next);
			previous = next;
		}
		throw new IOException("Redis closed the connection mid-reply");
	}

}
