package io.github.mcpsubscriptions.events;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A Standard Webhooks symmetric secret, as the client supplied it: {@code whsec_} and the
 * Base64 of 24 to 64 random bytes. Signs {@code id.timestamp.body} with HMAC-SHA256 over
 * the exact bytes sent.
 */
final class WebhookSecret {

	private static final String ALGORITHM = "HmacSHA256";

	private final byte[] key;

	private WebhookSecret(byte[] key) {
		this.key = key;
	}

	/**
	 * Read a secret a client sent.
	 * @param secret the secret
	 * @return the secret
	 * @throws IllegalArgumentException why it is not a valid one
	 */
	static WebhookSecret parse(String secret) {
		if (!secret.startsWith(EventsWire.SECRET_PREFIX)) {
			throw new IllegalArgumentException("\"delivery.secret\" must start with " + EventsWire.SECRET_PREFIX);
		}
		byte[] key;
		try {
			key = Base64.getDecoder().decode(secret.substring(EventsWire.SECRET_PREFIX.length()));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(
					"\"delivery.secret\" must be " + EventsWire.SECRET_PREFIX + " followed by Base64");
		}
		if (key.length < EventsWire.SECRET_MIN_BYTES || key.length > EventsWire.SECRET_MAX_BYTES) {
			throw new IllegalArgumentException("\"delivery.secret\" must decode to " + EventsWire.SECRET_MIN_BYTES
					+ " to " + EventsWire.SECRET_MAX_BYTES + " bytes, not " + key.length);
		}
		return new WebhookSecret(key);
	}

	/**
	 * The signature of a request, without its version prefix.
	 * @param webhookId the {@code webhook-id}
	 * @param timestamp the {@code webhook-timestamp}, Unix seconds
	 * @param body the body, exactly as sent
	 * @return the Base64 HMAC-SHA256
	 */
	String sign(String webhookId, long timestamp, byte[] body) {
		try {
			Mac mac = Mac.getInstance(ALGORITHM);
			mac.init(new SecretKeySpec(this.key, ALGORITHM));
			mac.update((webhookId + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
			return Base64.getEncoder().encodeToString(mac.doFinal(body));
		}
		catch (GeneralSecurityException ex) {
			// HmacSHA256 is required of every JDK.
			throw new IllegalStateException(ex);
		}
	}

	boolean sameAs(WebhookSecret other) {
		return MessageDigest.isEqual(this.key, other.key);
	}

	@Override
	public String toString() {
		// Never the key: a secret must not reach a log.
		return "WebhookSecret[redacted]";
	}

}
