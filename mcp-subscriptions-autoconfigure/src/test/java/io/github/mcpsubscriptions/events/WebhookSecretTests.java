package io.github.mcpsubscriptions.events;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Signing as Standard Webhooks does, checked against a vector computed with openssl; the
 * secrets the draft accepts; the subscription id derived from the key.
 */
class WebhookSecretTests {

	private static final String SECRET = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

	@Test
	void signsIdTimestampAndBodyAsTheVectorSays() {
		byte[] body = "{\"eventId\":\"evt_42\",\"name\":\"ticket.created\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"data\":{\"ticketId\":\"T-9\"},\"cursor\":\"c_17\"}"
			.getBytes(StandardCharsets.UTF_8);
		assertThat(body).hasSize(121);
		assertThat(WebhookSecret.parse(SECRET).sign("evt_42", 1767225600L, body))
			.isEqualTo("1M/786mRCx0EdsskutBdzpSjmDR5UBUC/Eh97fDIDrQ=");
	}

	@Test
	void refusesSecretsTheDraftDoesNotAccept() {
		assertThatIllegalArgumentException().isThrownBy(() -> WebhookSecret.parse(SECRET.substring(6)))
			.withMessageContaining("whsec_");
		assertThatIllegalArgumentException().isThrownBy(() -> WebhookSecret.parse("whsec_not base64!"))
			.withMessageContaining("Base64");
		// 23 and 65 bytes: one short of the range, one past it.
		assertThatIllegalArgumentException()
			.isThrownBy(() -> WebhookSecret.parse("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRY="))
			.withMessageContaining("not 23");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> WebhookSecret.parse("whsec_" + Base64.getEncoder().encodeToString(new byte[65])))
			.withMessageContaining("not 65");
		assertThat(WebhookSecret.parse("whsec_" + Base64.getEncoder().encodeToString(new byte[64]))).isNotNull();
		assertThat(WebhookSecret.parse(SECRET).toString()).doesNotContain("AAEC");
	}

	@Test
	void theIdIsDeterministicOverTheKeyWithArgumentsComparedCanonically() {
		JsonNode arguments = json("{\"b\":1,\"a\":{\"y\":[1,{\"q\":2,\"p\":1}],\"x\":\"\\\"\"}}");
		JsonNode reordered = json("{\"a\":{\"x\":\"\\\"\",\"y\":[1,{\"p\":1,\"q\":2}]},\"b\":1}");
		String id = WebhookMethods.id("alice", "https://hooks.example.net/a", "t", arguments);
		assertThat(id).matches("sub_[0-9a-f]{16}");
		assertThat(WebhookMethods.id("alice", "https://hooks.example.net/a", "t", reordered)).isEqualTo(id);
		assertThat(WebhookMethods.canonical(arguments))
			.isEqualTo("{\"a\":{\"x\":\"\\\"\",\"y\":[1,{\"p\":1,\"q\":2}]},\"b\":1}");
		assertThat(WebhookMethods.id("bob", "https://hooks.example.net/a", "t", arguments)).isNotEqualTo(id);
		assertThat(WebhookMethods.id("alice", "https://hooks.example.net/b", "t", arguments)).isNotEqualTo(id);
		assertThat(WebhookMethods.id("alice", "https://hooks.example.net/a", "u", arguments)).isNotEqualTo(id);
		assertThat(WebhookMethods.id("alice", "https://hooks.example.net/a", "t", json("{\"b\":2}"))).isNotEqualTo(id);
	}

}
