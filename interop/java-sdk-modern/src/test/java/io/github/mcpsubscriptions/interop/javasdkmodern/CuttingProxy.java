package io.github.mcpsubscriptions.interop.javasdkmodern;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP forwarder whose connections can all be cut at once: what a client sees
 * when the network drops its stream, which the server cannot show by ending the stream
 * itself.
 */
final class CuttingProxy implements AutoCloseable {

	private final ServerSocket server;

	private final int target;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private final Thread acceptor;

	CuttingProxy(int target) throws IOException {
		this.target = target;
		this.server = new ServerSocket();
		this.server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
		this.acceptor = daemon("cutting-proxy", this::accept);
	}

	int port() {
		return this.server.getLocalPort();
	}

	/** Closes every connection made so far, both ways. */
	void cut() {
		for (Socket socket : this.sockets) {
			close(socket);
		}
		this.sockets.clear();
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket(InetAddress.getLoopbackAddress(), this.target);
				this.sockets.add(client);
				this.sockets.add(upstream);
				pump(client, upstream);
				pump(upstream, client);
			}
			catch (IOException ex) {
				// Closed: the proxy is done.
			}
		}
	}

	private void pump(Socket from, Socket to) {
		daemon("cutting-proxy-pump", () -> {
			byte[] buffer = new byte[8192];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) >= 0) {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException ex) {
				// One side went: end the other.
			}
			finally {
				close(from);
				close(to);
			}
		});
	}

	private static Thread daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

	private static void close(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// Already closed.
		}
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		cut();
	}

}
