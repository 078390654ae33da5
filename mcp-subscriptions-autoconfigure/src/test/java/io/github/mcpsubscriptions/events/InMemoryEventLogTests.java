package io.github.mcpsubscriptions.events;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.events.EventLog.LoggedEvent;
import io.github.mcpsubscriptions.events.EventLog.Slice;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.test.MutableClock;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The in-memory event log: positions in order, bounded by size and by age, an epoch per
 * lifetime.
 */
class InMemoryEventLogTests {

	private static final EventType TYPE = EventTypeRegistry.describe(ProductChanged.class);

	private final MutableClock clock = new MutableClock(Instant.parse("2026-10-05T12:00:00Z"));

	@Test
	void readersAreToldOfEachAppendOnceTheEventIsReadableAndAFailingOneKeepsTheOthersTold() {
		InMemoryEventLog log = new InMemoryEventLog(10, Duration.ofHours(1), this.clock);
		List<Long> heads = new ArrayList<>();
		log.whenAppended(() -> {
			throw new IllegalStateException("a reader that fails");
		});
		log.whenAppended(() -> heads.add(log.after(0).head()));
		append(log, 1);
		append(log, 2);
		assertThat(heads).containsExactly(1L, 2L);
	}

	@Test
	void positionsGrowInOrderAndEventIdsAreStable() {
		InMemoryEventLog log = new InMemoryEventLog(10, Duration.ofHours(1), this.clock);
		assertThat(log.after(0)).isEqualTo(new Slice(0, 1, List.of()));
		LoggedEvent first = append(log, 1);
		LoggedEvent second = append(log, 2);
		assertThat(first.position()).isEqualTo(1);
		assertThat(second.position()).isEqualTo(2);
		assertThat(log.after(0).events()).containsExactly(first, second);
		assertThat(log.after(1).events()).containsExactly(second);
		assertThat(log.after(2).events()).isEmpty();
		assertThat(log.after(0).events().get(0).eventId()).isEqualTo(first.eventId());
		assertThat(first.eventId()).isNotEqualTo(second.eventId()).contains(log.epoch());
	}

	@Test
	void retainsAtMostItsSize() {
		InMemoryEventLog log = new InMemoryEventLog(3, Duration.ofHours(1), this.clock);
		for (int i = 1; i <= 5; i++) {
			append(log, i);
		}
		Slice slice = log.after(0);
		assertThat(slice.head()).isEqualTo(5);
		assertThat(slice.oldest()).isEqualTo(3);
		assertThat(slice.events()).extracting(LoggedEvent::position).containsExactly(3L, 4L, 5L);
	}

	@Test
	void retainsNothingOlderThanItsAge() {
		InMemoryEventLog log = new InMemoryEventLog(10, Duration.ofMinutes(5), this.clock);
		append(log, 1);
		this.clock.advance(Duration.ofMinutes(3));
		append(log, 2);
		this.clock.advance(Duration.ofMinutes(3));
		Slice slice = log.after(0);
		assertThat(slice.events()).extracting(LoggedEvent::position).containsExactly(2L);
		assertThat(slice.oldest()).isEqualTo(2);
		this.clock.advance(Duration.ofMinutes(3));
		assertThat(log.after(0)).isEqualTo(new Slice(2, 3, List.of()));
	}

	@Test
	void everyLogHasItsOwnEpoch() {
		assertThat(new InMemoryEventLog(1, Duration.ofHours(1), this.clock).epoch())
			.isNotEqualTo(new InMemoryEventLog(1, Duration.ofHours(1), this.clock).epoch());
	}

	@Test
	void refusesAnEmptyRetention() {
		assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryEventLog(0, Duration.ofHours(1), this.clock));
		assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryEventLog(1, Duration.ZERO, this.clock));
	}

	@Test
	void cursorsRoundTripAndForeignOnesAreRefused() {
		EventsWire.Cursor cursor = new EventsWire.Cursor("abc", 42);
		assertThat(EventsWire.Cursor.decode(cursor.encode())).isEqualTo(cursor);
		for (String foreign : new String[] { "", "!!", "MTo6NQ", "MjphYmM6NDI", "MTphYmM6LTE" }) {
			assertThatExceptionOfType(JsonRpcException.class).as(foreign)
				.isThrownBy(() -> EventsWire.Cursor.decode(foreign));
		}
	}

	private LoggedEvent append(InMemoryEventLog log, long id) {
		return log.append(TYPE, new ProductChanged(id, "p", 1, ProductChanged.Change.created),
				JsonNodeFactory.instance.objectNode().put("id", id));
	}

}
