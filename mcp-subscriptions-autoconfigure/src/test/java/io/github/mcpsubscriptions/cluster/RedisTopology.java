package io.github.mcpsubscriptions.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * A Redis topology of a test's own, from the run's redis-server binary on free loopback
 * ports and set up with Redis commands (no redis-cli), and the Spring Boot properties
 * that point a node at it. Closing it kills every process it started and removes their
 * directories.
 */
abstract sealed class RedisTopology implements AutoCloseable {

	private static final Duration READY = Duration.ofSeconds(30);

	final List<RedisServerProcess> processes = new ArrayList<>();

	/**
	 * Spring Boot's own properties for this topology, as {@code name=value}.
	 * @return the properties
	 */
	abstract List<String> properties();

	RedisServerProcess add(RedisServerProcess process) {
		this.processes.add(process);
		return process;
	}

	@Override
	public void close() throws Exception {
		Exception failure = null;
		for (RedisServerProcess process : this.processes) {
			try {
				process.close();
			}
			catch (Exception ex) {
				failure = ex;
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	static String info(RedisServerProcess process, String section) {
		try {
			return process.cli("INFO", section);
		}
		catch (IOException | IllegalStateException ex) {
			return "";
		}
	}

	/**
	 * A master, a replica of it and one Sentinel that fails over a second after the
	 * master stops answering.
	 */
	static final class Sentinel extends RedisTopology {

		static final String MASTER_NAME = "mcp-master";

		final RedisServerProcess master;

		final RedisServerProcess replica;

		final RedisServerProcess sentinel;

		Sentinel() throws Exception {
			this.master = add(new RedisServerProcess());
			this.replica = add(
					new RedisServerProcess(List.of("--replicaof", "127.0.0.1", Integer.toString(this.master.port()))));
			await().atMost(READY).until(() -> info(this.replica, "replication").contains("master_link_status:up"));
			this.sentinel = add(RedisServerProcess.sentinel(MASTER_NAME, this.master.port()));
			await().atMost(READY).until(() -> info(this.sentinel, "sentinel").contains("slaves=1"));
		}

		@Override
		List<String> properties() {
			return List.of("spring.data.redis.sentinel.master=" + MASTER_NAME,
					"spring.data.redis.sentinel.nodes=" + this.sentinel.address());
		}

		/**
		 * The port of the master Sentinel names now.
		 * @return the port
		 */
		int masterPort() throws IOException {
			String[] address = this.sentinel.cli("SENTINEL", "get-master-addr-by-name", MASTER_NAME)
				.trim()
				.split("\\s+");
			return Integer.parseInt(address[address.length - 1]);
		}

		/**
		 * Kill the master ({@code kill -9}) and wait until Sentinel has promoted the
		 * replica.
		 */
		void failOver() throws Exception {
			this.master.kill();
			await().atMost(READY)
				.until(() -> masterPort() == this.replica.port()
						&& info(this.replica, "replication").contains("role:master"));
		}

	}

	/**
	 * A Redis Cluster of three masters (no replicas), created as
	 * {@code redis-cli --cluster create} does: each node gets a third of the slots and a
	 * config epoch of its own, then the first meets the others.
	 */
	static final class Cluster extends RedisTopology {

		private static final int SLOTS = 16384;

		private static final int NODES = 3;

		Cluster() throws Exception {
			for (int i = 0; i < NODES; i++) {
				add(RedisServerProcess.clusterNode());
			}
			for (int i = 0; i < NODES; i++) {
				RedisServerProcess node = this.processes.get(i);
				// CLUSTER ADDSLOTSRANGE needs Redis 7: ADDSLOTS takes every slot of the
				// range.
				List<String> addSlots = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
				for (int slot = i * SLOTS / NODES; slot < (i + 1) * SLOTS / NODES; slot++) {
					addSlots.add(Integer.toString(slot));
				}
				node.cli(addSlots.toArray(String[]::new));
				node.cli("CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
			}
			RedisServerProcess first = this.processes.get(0);
			for (RedisServerProcess other : this.processes.subList(1, NODES)) {
				first.cli("CLUSTER", "MEET", "127.0.0.1", Integer.toString(other.port()));
			}
			await().atMost(READY)
				.until(() -> this.processes.stream()
					.allMatch((process) -> info(process, "cluster").contains("cluster_enabled:1")
							&& clusterState(process).contains("cluster_state:ok")
							&& clusterState(process).contains("cluster_known_nodes:" + NODES)));
		}

		private static String clusterState(RedisServerProcess process) {
			try {
				return process.cli("CLUSTER", "INFO");
			}
			catch (IOException | IllegalStateException ex) {
				return "";
			}
		}

		@Override
		List<String> properties() {
			return List.of("spring.data.redis.cluster.nodes="
					+ this.processes.stream().map(RedisServerProcess::address).collect(Collectors.joining(",")));
		}

		/**
		 * The server holding a key's slot.
		 * @param key the key
		 * @return its server
		 */
		RedisServerProcess holderOf(String key) throws IOException {
			int slot = Integer.parseInt(this.processes.get(0).cli("CLUSTER", "KEYSLOT", key).trim());
			for (RedisServerProcess process : this.processes) {
				for (String line : process.cli("CLUSTER", "NODES").split("\n")) {
					String[] fields = line.split(" ");
					if (fields.length > 8 && fields[2].contains("myself")) {
						for (int i = 8; i < fields.length; i++) {
							String[] range = fields[i].trim().split("-");
							int from = Integer.parseInt(range[0]);
							int to = Integer.parseInt(range[range.length - 1]);
							if (slot >= from && slot <= to) {
								return process;
							}
						}
					}
				}
			}
			throw new IllegalStateException("No node holds slot " + slot);
		}

	}

}
