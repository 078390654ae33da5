package io.github.mcpsubscriptions.session;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import io.github.mcpsubscriptions.notification.EncodedMessage;
import io.github.mcpsubscriptions.test.RecordingStream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

class SessionEventLogTests {

	private final SessionEventLog log = new SessionEventLog(3);

	@Test
	void idsAreUniqueAndCarryTheStream() {
		Set<String> ids = new HashSet<>();
		for (int i = 0; i < 100; i++) {
			ids.add(this.log.append("m" + i));
		}
		assertThat(ids).hasSize(100);
		assertThat(ids).allMatch((id) -> id.matches("[0-9a-f]{12}-\\d+"));
		assertThat(new SessionEventLog(3).lastId()).isNotEqualTo(this.log.lastId().replaceAll("-\\d+$", "-0"));
	}

	@Test
	void aMessageSentUnderItsIdIsRecordedUnderThatIdEvenIfTheWriteFails() throws IOException {
		String before = this.log.append("a");
		RecordingStream stream = new RecordingStream();
		this.log.appendAndSend(EncodedMessage.of("b"), stream);
		String sent = this.log.lastId();
		assertThat(stream.written()).containsExactly("id=" + sent + " data=b");
		stream.failWrites();
		assertThatIOException().isThrownBy(() -> this.log.appendAndSend(EncodedMessage.of("c"), stream));
		assertThat(this.log.after(before)).extracting(SessionEventLog.Event::id, SessionEventLog.Event::data)
			.containsExactly(tuple(sent, "b"), tuple(this.log.lastId(), "c"));
	}

	@Test
	void replaysExactlyWhatFollowed() {
		String first = this.log.append("a");
		this.log.append("b");
		this.log.append("c");
		assertThat(this.log.after(first)).extracting(SessionEventLog.Event::data).containsExactly("b", "c");
		assertThat(this.log.after(this.log.lastId())).isEmpty();
	}

	@Test
	void primingIdsAreUniqueAndResumeWhereTheyStand() {
		String first = this.log.append("a");
		String atEnd = this.log.primingId(null);
		String afterFirst = this.log.primingId(first);
		String again = this.log.primingId(first);
		this.log.append("b");
		assertThat(Set.of(first, atEnd, afterFirst, again)).hasSize(4);
		assertThat(this.log.after(atEnd)).extracting(SessionEventLog.Event::data).containsExactly("b");
		assertThat(this.log.after(afterFirst)).extracting(SessionEventLog.Event::data).containsExactly("b");
		assertThat(this.log.after(atEnd + "x")).as("not an id of this log").isNull();
	}

	@Test
	void fromTheStartWhileNothingWasDropped() {
		String start = this.log.lastId();
		this.log.append("a");
		this.log.append("b");
		assertThat(this.log.after(start)).extracting(SessionEventLog.Event::data).containsExactly("a", "b");
	}

	@Test
	void idOlderThanTheLogIsAGap() {
		String first = this.log.append("a");
		String second = this.log.append("b");
		this.log.append("c");
		this.log.append("d");
		this.log.append("e");
		// "b" and "a" are gone: after "a" would need "b".
		assertThat(this.log.after(first)).isNull();
		// After "b", all that followed ("c", "d", "e") is still kept.
		assertThat(this.log.after(second)).extracting(SessionEventLog.Event::data).containsExactly("c", "d", "e");
	}

	@Test
	void foreignFutureAndMalformedIdsAreGaps() {
		this.log.append("a");
		SessionEventLog other = new SessionEventLog(3);
		assertThat(this.log.after(other.append("x"))).isNull();
		assertThat(this.log.after(this.log.lastId().replaceAll("-\\d+$", "-99"))).isNull();
		assertThat(this.log.after("garbage")).isNull();
		assertThat(this.log.after(this.log.lastId().replaceAll("-\\d+$", "-x"))).isNull();
	}

	@Test
	void keepsAtMostCapacity() {
		String start = this.log.lastId();
		for (int i = 0; i < 10; i++) {
			this.log.append("m" + i);
		}
		assertThat(this.log.after(start)).isNull();
		List<SessionEventLog.Event> kept = this.log.after(this.log.lastId().replaceAll("-\\d+$", "-7"));
		assertThat(kept).extracting(SessionEventLog.Event::data).containsExactly("m7", "m8", "m9");
	}

	@Test
	void keepsExactlyItsCapacityWhateverItsChunks() {
		// Chunks of 32 in a spine of 16 at first: 1000 grows it twice, to 33 chunks;
		// every
		// capacity keeps up to a chunk of older messages, which must never be replayed.
		for (int capacity : new int[] { 1, 2, 3, 31, 32, 33, 255, 256, 257, 300, 1000 }) {
			SessionEventLog log = new SessionEventLog(capacity);
			List<String> ids = new ArrayList<>();
			ids.add(log.lastId());
			for (int sequence = 1; sequence <= 2 * capacity + 600; sequence++) {
				ids.add(log.append("m" + sequence));
				if (capacity > 300 && sequence % 50 != 0 && (sequence + 1) % 32 > 2) {
					// Around each new chunk (and so each growth of the spine), and every
					// 50th.
					continue;
				}
				int last = sequence;
				for (int from : new int[] { 0, 1, last - capacity - 1, last - capacity, last - capacity + 1, last / 2,
						last - 1, last }) {
					if (from < 0 || from > last) {
						continue;
					}
					List<SessionEventLog.Event> replay = log.after(ids.get(from));
					if (from < last - capacity) {
						assertThat(replay).as("capacity %d, after %d of %d: a gap", capacity, from, last).isNull();
					}
					else {
						assertThat(replay).as("capacity %d, after %d of %d", capacity, from, last)
							.extracting(SessionEventLog.Event::data)
							.containsExactlyElementsOf(
									IntStream.rangeClosed(from + 1, last).mapToObj((n) -> "m" + n).toList());
					}
				}
			}
		}
	}

	@Test
	void capacityMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new SessionEventLog(0));
	}

}
