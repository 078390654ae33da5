package io.github.mcpsubscriptions.transport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.notification.EncodedMessage;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The SSE framing on its own: bytes in an array, no stream, no container.
 */
class SseFramesTests {

	private final SseFrames frames = new SseFrames(16);

	@Test
	void aMessageHasItsIdItsTypeAndOneDataLine() {
		this.frames.message("s-1", "{\"a\":1}");
		this.frames.message(null, "{\"b\":2}");
		assertThat(text()).isEqualTo("id:s-1\nevent:message\ndata:{\"a\":1}\n\n" + "event:message\ndata:{\"b\":2}\n\n");
	}

	@Test
	void everyLineOfThePayloadGetsADataLineOfItsOwn() {
		this.frames.message(null, "line one\nline two\nline three");
		this.frames.message(null, "ends with a break\n");
		this.frames.message(null, "\n");
		assertThat(text()).isEqualTo("event:message\ndata:line one\ndata:line two\ndata:line three\n\n"
				+ "event:message\ndata:ends with a break\ndata:\n\n" + "event:message\ndata:\ndata:\n\n");
		assertThat(parse(text())).extracting(Event::data)
			.containsExactly("line one\nline two\nline three", "ends with a break\n", "\n");
	}

	@Test
	void aCarriageReturnBeforeALineFeedStaysWhereClientsReadItAsTheSameLineEnd() {
		this.frames.message(null, "line one\r\nline two");
		assertThat(text()).isEqualTo("event:message\ndata:line one\r\ndata:line two\n\n");
		assertThat(parse(text())).extracting(Event::data).containsExactly("line one\nline two");
	}

	@Test
	void anEmptyPayloadIsAPrimingEventWithoutAType() {
		this.frames.message("s-2", "");
		this.frames.prime("s-3");
		this.frames.message(null, EncodedMessage.of(""));
		assertThat(text()).isEqualTo("id:s-2\ndata:\n\n" + "id:s-3\ndata:\n\n" + "data:\n\n");
		assertThat(parse(text())).extracting(Event::id).containsExactly("s-2", "s-3", null);
	}

	@Test
	void aMessageInBytesIsFramedAsItsText() {
		SseFrames fromText = new SseFrames(16);
		for (String payload : List.of("{\"a\":1}", "line one\nline two", "", "é€😀")) {
			this.frames.message("s-1", EncodedMessage.of(payload));
			fromText.message("s-1", payload);
		}
		assertThat(text()).isEqualTo(new String(fromText.copy(), StandardCharsets.UTF_8));
		assertThat(parse(text())).extracting(Event::data)
			.containsExactly("{\"a\":1}", "line one\nline two", "", "é€😀");
	}

	@Test
	void anEventIdOfAPrefixAndANumberIsWrittenAsTheirText() {
		byte[] prefix = "0a1b2c-".getBytes(StandardCharsets.US_ASCII);
		long[] numbers = { 0, 7, 9, 10, 99, 100, 1234567890123L, Long.MAX_VALUE };
		StringBuilder expected = new StringBuilder();
		for (long number : numbers) {
			this.frames.message(prefix, number, EncodedMessage.of("{\"n\":" + number + "}"));
			expected.append("id:0a1b2c-" + number + "\nevent:message\ndata:{\"n\":" + number + "}\n\n");
		}
		this.frames.message(prefix, 3, EncodedMessage.of("line one\nline two"));
		expected.append("id:0a1b2c-3\nevent:message\ndata:line one\ndata:line two\n\n");
		assertThat(text()).isEqualTo(expected.toString());
	}

	@Test
	void anEventIdWithALineBreakOrANulIsRefusedAndNothingIsFramed() {
		this.frames.message("s-1", "{\"a\":1}");
		String before = text();
		for (String id : List.of("s\n2", "s\r2", "s\u00002")) {
			assertThatIllegalArgumentException().isThrownBy(() -> this.frames.message(id, "{\"a\":1}"));
			assertThatIllegalArgumentException()
				.isThrownBy(() -> this.frames.message(id, EncodedMessage.of("{\"a\":1}")));
			assertThatIllegalArgumentException().isThrownBy(() -> this.frames.prime(id));
			assertThatIllegalArgumentException().isThrownBy(
					() -> this.frames.message(id.getBytes(StandardCharsets.UTF_8), 1, EncodedMessage.of("{\"a\":1}")));
		}
		assertThat(text()).isEqualTo(before);
	}

	@Test
	void aCommentIsAColonLinePerLine() {
		this.frames.comment("keep-alive");
		this.frames.comment("one\ntwo");
		this.frames.heartbeat();
		assertThat(text()).isEqualTo(":keep-alive\n\n" + ":one\n:two\n\n" + ":heartbeat\n\n");
		assertThat(parse(text())).as("clients ignore comments").isEmpty();
	}

	@Test
	void theRetryFieldIsInMilliseconds() {
		this.frames.retry(Duration.ofMillis(1500));
		this.frames.retry(Duration.ZERO);
		assertThat(text()).isEqualTo("retry:1500\n\n" + "retry:0\n\n");
	}

	@Test
	void framesOutgrowingTheArrayArriveWholeAndTheGrownArrayIsKeptWithinItsBound() {
		String big = "x".repeat(3000);
		this.frames.message(null, "{\"n\":1}");
		this.frames.message(null, big);
		assertThat(text()).isEqualTo("event:message\ndata:{\"n\":1}\n\n" + "event:message\ndata:" + big + "\n\n");
		byte[] grown = this.frames.array();
		this.frames.clear(64 * 1024);
		assertThat(this.frames.isEmpty()).isTrue();
		assertThat(this.frames.array()).as("kept for the next frames").isSameAs(grown);
		this.frames.message(null, "x".repeat(10_000));
		assertThat(this.frames.array()).isNotSameAs(grown);
		this.frames.clear(8 * 1024);
		assertThat(this.frames.array()).as("past the bound: the array kept before").isSameAs(grown);
		assertThat(this.frames.length()).isZero();
	}

	private String text() {
		return new String(this.frames.copy(), StandardCharsets.UTF_8);
	}

	/**
	 * The events a client reads, as the SSE specification parses a stream: lines end at
	 * CRLF, CR or LF; {@code data} lines are joined with LF; a comment line starts with a
	 * colon; an event with no {@code data} line is not dispatched.
	 */
	private static List<Event> parse(String stream) {
		List<Event> events = new ArrayList<>();
		String id = null;
		StringBuilder data = null;
		for (String line : stream.split("\r\n|\r|\n", -1)) {
			if (line.isEmpty()) {
				if (data != null) {
					events.add(new Event(id, data.toString()));
				}
				id = null;
				data = null;
				continue;
			}
			if (line.startsWith(":")) {
				continue;
			}
			int colon = line.indexOf(':');
			String name = (colon < 0) ? line : line.substring(0, colon);
			String value = (colon < 0) ? "" : line.substring(colon + 1);
			value = value.startsWith(" ") ? value.substring(1) : value;
			if (name.equals("data")) {
				data = (data != null) ? data.append('\n').append(value) : new StringBuilder(value);
			}
			else if (name.equals("id")) {
				id = value;
			}
		}
		return events;
	}

	private record Event(@Nullable String id, String data) {

	}

}
