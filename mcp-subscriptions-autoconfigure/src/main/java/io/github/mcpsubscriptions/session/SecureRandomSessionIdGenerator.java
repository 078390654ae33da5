package io.github.mcpsubscriptions.session;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Session ids of 256 random bits from {@link SecureRandom}, URL-safe Base64 without
 * padding (43 characters).
 *
 * @since 0.1.0
 */
public class SecureRandomSessionIdGenerator implements SessionIdGenerator {

	private static final int ID_BYTES = 32;

	private final SecureRandom random = new SecureRandom();

	@Override
	public String generateId() {
		byte[] bytes = new byte[ID_BYTES];
		this.random.nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

}
