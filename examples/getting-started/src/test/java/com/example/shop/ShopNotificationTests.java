package com.example.shop;

import java.util.Map;

import io.github.mcpsubscriptions.tester.AutoConfigureMcpTester;
import io.github.mcpsubscriptions.tester.McpNotification;
import io.github.mcpsubscriptions.tester.McpSession;
import io.github.mcpsubscriptions.tester.McpSubscription;
import io.github.mcpsubscriptions.tester.McpTester;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureMcpTester
class ShopNotificationTests {

	@Autowired
	private McpTester mcp;

	@Test
	void aSubscriberIsToldWhenAnOrderShips() {
		try (McpSession session = this.mcp.session()) {
			McpSubscription order = session.subscribe("shop://orders/42");

			ship(42);

			McpNotification notification = order.awaitNotification();
			assertThat(notification.uri()).isEqualTo("shop://orders/42");
			assertThat(notification.meta()).containsEntry("status", "shipped");
			assertThat(session.read("shop://orders/42").text()).contains("\"status\":\"shipped\"");
		}
	}

	@Test
	void aListenerOfTheCollectionIsToldWhenTheToolShipsAnOrder() {
		try (McpSubscription orders = this.mcp.listen("shop://orders")) {
			this.mcp.callTool("ship_order", Map.of("id", 1));

			McpNotification notification = orders.awaitNotification();
			assertThat(notification.uri()).isEqualTo("shop://orders/1");
			assertThat(notification.subscribedUri()).isEqualTo("shop://orders");
		}
	}

	private void ship(long id) {
		RestClient.create().post().uri(this.mcp.endpoint().resolve("/orders/" + id + "/ship")).retrieve().toBodilessEntity();
	}

}
