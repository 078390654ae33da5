package io.github.mcpsubscriptions.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.test.ManualDeliveryScheduler;
import io.github.mcpsubscriptions.test.MutableClock;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The heartbeat wheel, turned by hand: one heartbeat per interval for an idle stream,
 * none for one that wrote, and streams opened together spread over the slots.
 */
class HeartbeatsTests {

	@Test
	void aHalfIntervalIsSpreadOverSlots50msApart() {
		Heartbeats standard = new Heartbeats(Duration.ofSeconds(15), false);
		assertThat(standard.getSlotCount()).isEqualTo(150);
		assertThat(standard.getTick()).isEqualTo(Duration.ofMillis(50));
		Heartbeats shortOne = new Heartbeats(Duration.ofMillis(200), false);
		assertThat(shortOne.getSlotCount()).isEqualTo(2);
		assertThat(shortOne.getTick()).isEqualTo(Duration.ofMillis(50));
		assertThat(new Heartbeats(Duration.ZERO, false).getSlotCount()).as("off").isZero();
	}

	@Test
	void idleStreamsOpenedTogetherGetOneHeartbeatPerIntervalSpreadOverTheTicks() throws IOException {
		Heartbeats heartbeats = new Heartbeats(Duration.ofSeconds(15), false);
		List<Output> outputs = new ArrayList<>();
		for (int i = 0; i < 600; i++) {
			Output out = new Output();
			outputs.add(out);
			heartbeats.add(open(out));
		}
		// First turn of the wheel (half an interval): each stream's first quiet visit.
		for (int i = 0; i < 150; i++) {
			heartbeats.tick();
		}
		assertThat(heartbeats.getHeartbeatCount()).isZero();
		// Second turn: one heartbeat each, at most 4 streams in any tick (600 / 150).
		long mostInATick = 0;
		for (int i = 0; i < 150; i++) {
			long before = heartbeats.getHeartbeatCount();
			heartbeats.tick();
			mostInATick = Math.max(mostInATick, heartbeats.getHeartbeatCount() - before);
		}
		assertThat(heartbeats.getHeartbeatCount()).isEqualTo(600);
		assertThat(mostInATick).isEqualTo(4);
		assertThat(outputs).allSatisfy((out) -> assertThat(out.text()).isEqualTo(":heartbeat\n\n"));
	}

	@Test
	void aStreamThatWroteIsSkippedAndAnEndedOneIsForgotten() throws IOException {
		Heartbeats heartbeats = new Heartbeats(Duration.ofMillis(100), false);
		Output busyOut = new Output();
		AsyncSseStream busy = open(busyOut);
		AsyncSseStream ended = open(new Output());
		heartbeats.add(busy);
		heartbeats.add(ended);
		heartbeats.remove(ended);
		ended.abort();
		for (int turn = 0; turn < 4; turn++) {
			busy.sendComment("x");
			for (int i = 0; i < heartbeats.getSlotCount(); i++) {
				heartbeats.tick();
			}
		}
		assertThat(heartbeats.getHeartbeatCount()).isZero();
		assertThat(busyOut.text()).doesNotContain("heartbeat");
	}

	@Test
	void anIntervalAbove30sIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new McpEndpointOptions(1024, true, List.of(), List.of(), Duration.ofSeconds(31)))
			.withMessageContaining("mcp.endpoint.heartbeat-interval");
		assertThat(new McpEndpointOptions(1024, true, List.of(), List.of(), Duration.ofSeconds(30))).isNotNull();
		assertThat(new McpEndpointOptions(1024, true, List.of(), List.of(), Duration.ZERO)).isNotNull();
	}

	private static AsyncSseStream open(Output out) throws IOException {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/mcp");
		request.setAsyncSupported(true);
		HttpServletResponseWrapper response = new HttpServletResponseWrapper(new MockHttpServletResponse()) {

			@Override
			public ServletOutputStream getOutputStream() {
				return out;
			}

		};
		return AsyncSseStream.open(request, response, (closed) -> {
		}, (done) -> {
		}, null, new ManualDeliveryScheduler(new MutableClock(Instant.EPOCH)), Duration.ofSeconds(1));
	}

	private static final class Output extends ServletOutputStream {

		private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

		@Override
		public boolean isReady() {
			return true;
		}

		@Override
		public void setWriteListener(WriteListener writeListener) {
		}

		@Override
		public void write(int b) {
			this.bytes.write(b);
		}

		String text() {
			return this.bytes.toString(StandardCharsets.UTF_8);
		}

	}

}
