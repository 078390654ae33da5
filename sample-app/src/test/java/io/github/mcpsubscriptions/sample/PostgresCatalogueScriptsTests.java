package io.github.mcpsubscriptions.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code postgres} profile's catalogue scripts on a real PostgreSQL: nodes of a
 * cluster that start at once run them at once, and none of them may fail (PostgreSQL's
 * {@code create table if not exists} alone fails one of two concurrent callers now and
 * then).
 */
class PostgresCatalogueScriptsTests {

	private static final int NODES = 3;

	private static final int ROUNDS = 15;

	@Test
	void nodesThatCreateTheCatalogueAtOnceAllSucceedAndAddProductsOneToFiveOnce() throws Exception {
		ExecutorService nodes = Executors.newFixedThreadPool(NODES);
		try {
			for (int round = 0; round < ROUNDS; round++) {
				try (SamplePostgres database = new SamplePostgres()) {
					CyclicBarrier start = new CyclicBarrier(NODES);
					List<CompletableFuture<Void>> runs = new ArrayList<>();
					for (int node = 0; node < NODES; node++) {
						runs.add(CompletableFuture.runAsync(() -> {
							await(start);
							database.createCatalogue();
						}, nodes));
					}
					CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).join();
					assertThat(database.queryLongs("select id from %s.product order by id")).containsExactly(1L, 2L, 3L,
							4L, 5L);
				}
			}
		}
		finally {
			nodes.shutdownNow();
		}
	}

	private static void await(CyclicBarrier barrier) {
		try {
			barrier.await();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
