package io.github.mcpsubscriptions.interop.jetty;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.interop.jetty.JettyApplication.Items;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an open stream holds on Jetty beyond the heap: once it has written, Jetty keeps
 * the response's output buffer (direct memory, 32 KB by default) until the response ends,
 * which ran a 16,000-stream node with {@code -Xmx512m} out of direct memory (its default
 * limit is the heap's). The starter asks for a small buffer on its own streams only.
 * Every stream comes from one address, faster than one client is allowed to listen: no
 * rate limit.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "mcp.listen.rate-limit.requests=0")
class JettyStreamBufferTests {

	private static final int STREAMS = 100;

	@Autowired
	private Items items;

	@LocalServerPort
	private int port;

	@Test
	void anOpenStreamHoldsASmallOutputBuffer() throws Exception {
		List<RawStream> streams = new ArrayList<>();
		try {
			// One stream first, so that what every connection needs once is counted
			// before.
			streams.add(RawStream.connect(this.port).listen(0, JettyApplication.URI));
			streams.get(0).readUntil("notifications/subscriptions/acknowledged");
			long before = directMemoryUsed();
			for (int i = 1; i <= STREAMS; i++) {
				streams.add(RawStream.connect(this.port).listen(i, JettyApplication.URI));
			}
			for (RawStream stream : streams.subList(1, streams.size())) {
				stream.readUntil("notifications/subscriptions/acknowledged");
			}
			this.items.changed(1);
			for (RawStream stream : streams) {
				stream.readUntil("\"version\":1");
			}
			long perStream = (directMemoryUsed() - before) / STREAMS;
			// 41,000 B measured with Jetty's default 32 KB buffer, 12,328 B with the
			// starter's 4 KB.
			assertThat(perStream).isLessThan(20 * 1024);
		}
		finally {
			for (RawStream stream : streams) {
				stream.close();
			}
		}
	}

	private static long directMemoryUsed() {
		return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
			.stream()
			.filter((pool) -> pool.getName().equals("direct"))
			.mapToLong(BufferPoolMXBean::getMemoryUsed)
			.sum();
	}

}
