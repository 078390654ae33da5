package io.github.mcpsubscriptions.cluster;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a clustered node logs at start-up: one line that says the cluster is on, with the
 * Redis it uses and the key prefix, and no line that reads like a fault when none is.
 */
@ExtendWith(OutputCaptureExtension.class)
class ClusterStartLogTests {

	private final ClusterNodes nodes = new ClusterNodes(2);

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void aNodeSaysThatTheClusterIsOnWithItsRedisAndKeyPrefix(CapturedOutput output) {
		Environment environment = this.nodes.start("logged").getEnvironment();
		String redis = environment.getProperty("spring.data.redis.host") + ":"
				+ environment.getProperty("spring.data.redis.port") + " (database "
				+ environment.getProperty("spring.data.redis.database") + ")";
		assertThat(output).contains("The MCP cluster is on: node logged, Redis at " + redis + ", key prefix "
				+ this.nodes.redis().prefix());
	}

	@Test
	void theStartUpLogHasNoLineThatReadsLikeAFault(CapturedOutput output) {
		this.nodes.start("quiet");
		assertThat(output).doesNotContain("was not registered (disabled)")
			.doesNotContain(" at once")
			.contains("processors busy (mcp.notifications.delivery-cpu-share)");
	}

}
