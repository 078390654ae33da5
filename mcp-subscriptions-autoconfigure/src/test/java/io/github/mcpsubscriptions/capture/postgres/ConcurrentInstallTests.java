package io.github.mcpsubscriptions.capture.postgres;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.github.mcpsubscriptions.capture.CapturedTable;
import io.github.mcpsubscriptions.jpa.PostgresTestDatabase;
import io.github.mcpsubscriptions.resource.UriTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nodes of a cluster that start together install the capture together: every one of them
 * starts, on a real PostgreSQL (which fails one of two concurrent
 * {@code create table if not exists} of one name unless they take turns).
 */
class ConcurrentInstallTests {

	private static final int NODES = 4;

	private static final int ROUNDS = 8;

	@Test
	void nodesInstallingAtOnceAllSucceed() throws Exception {
		List<CapturedTable> tables = List
			.of(new CapturedTable("product", UriTemplate.parse("catalog://products/{id}")));
		AtomicInteger installed = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(NODES);
		try (PostgresTestDatabase database = new PostgresTestDatabase()) {
			database.execute("create table " + database.schema() + ".product (id bigint primary key)");
			DataSource dataSource = database.dataSource();
			for (int round = 0; round < ROUNDS; round++) {
				CountDownLatch start = new CountDownLatch(1);
				List<Future<?>> installs = new ArrayList<>();
				for (int node = 0; node < NODES; node++) {
					installs.add(pool.submit(() -> {
						try (Connection connection = dataSource.getConnection()) {
							start.await();
							new PostgresCaptureDatabase("mcp_change").install(connection, tables);
							installed.incrementAndGet();
						}
						return null;
					}));
				}
				start.countDown();
				for (Future<?> install : installs) {
					install.get();
				}
				database.execute("drop table " + database.schema() + ".mcp_change, " + database.schema()
						+ ".mcp_change_cursor cascade");
			}
			assertThat(installed).hasValue(ROUNDS * NODES);
		}
		finally {
			pool.shutdownNow();
		}
	}

}
