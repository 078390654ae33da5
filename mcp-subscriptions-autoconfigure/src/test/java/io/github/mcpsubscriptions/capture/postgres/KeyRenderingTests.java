package io.github.mcpsubscriptions.capture.postgres;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import io.github.mcpsubscriptions.capture.CapturedRow;
import io.github.mcpsubscriptions.capture.CapturedTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static io.github.mcpsubscriptions.capture.postgres.CaptureSchema.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A captured key comes out as the application writes the same value into its own URIs
 * (with {@code String.valueOf} of the JDBC value's Java type, or its {@code java.time}
 * form), whatever the writing session's settings: one case per common key type, written
 * by a session with another time zone and date style.
 */
class KeyRenderingTests {

	private final CaptureSchema schema = new CaptureSchema();

	@AfterEach
	void close() {
		this.schema.close();
	}

	static Stream<Arguments> types() {
		return Stream.of(Arguments.of("int", "42", 42), //
				Arguments.of("bigint", "9007199254740993", 9007199254740993L),
				Arguments.of("text", "'ada lovelace'", "ada lovelace"), //
				Arguments.of("varchar(20)", "'X-1/2'", "X-1/2"),
				Arguments.of("uuid", "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'",
						UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")),
				Arguments.of("numeric(10, 2)", "1.50", new BigDecimal("1.50")),
				Arguments.of("numeric", "0.000", new BigDecimal("0.000")),
				Arguments.of("date", "'2026-01-02'", LocalDate.of(2026, 1, 2)),
				Arguments.of("timestamptz", "'2026-01-02 03:04:05.5+02'", Instant.parse("2026-01-02T01:04:05.500Z")),
				Arguments.of("timestamptz", "'2026-01-02 03:04:05+00'", Instant.parse("2026-01-02T03:04:05Z")),
				Arguments.of("timestamptz", "'2026-01-02 03:04:05.123456+00'",
						OffsetDateTime.parse("2026-01-02T03:04:05.123456Z").toInstant()),
				Arguments.of("boolean", "true", true));
	}

	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("types")
	void aKeyIsRenderedAsTheApplicationWritesIt(String type, String literal, Object applicationValue) throws Exception {
		this.schema.sql("create table item (k " + type + " primary key)");
		CapturedTable item = table("item", "items://things/{k}");
		assertThat(this.schema.check(item)).isEmpty();
		this.schema.install(item);
		try (Connection connection = this.schema.connectAs("postgres");
				Statement statement = connection.createStatement()) {
			statement.execute("set search_path = " + this.schema.schema());
			statement.execute("set timezone = 'America/New_York'");
			// Local to the writing transaction: the driver itself wants DateStyle ISO.
			statement.execute("do $$ begin perform set_config('datestyle', 'SQL, DMY', true); "
					+ "perform set_config('intervalstyle', 'sql_standard', true); insert into item values (" + literal
					+ "); end $$");
		}
		List<CapturedRow> rows = this.schema.rows();
		assertThat(rows).hasSize(1);
		assertThat(rows.get(0).newValues()).isEqualTo(Map.of("k", String.valueOf(applicationValue)));
		assertThat(item.uri(rows.get(0).newValues()))
			.isEqualTo(item.template().expand(Map.of("k", String.valueOf(applicationValue))));
	}

}
