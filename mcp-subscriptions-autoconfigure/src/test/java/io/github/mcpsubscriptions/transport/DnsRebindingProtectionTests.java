package io.github.mcpsubscriptions.transport;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The host a request names is read from {@code Host} in HTTP/1.1 and from
 * {@code :authority} in HTTP/2, which carries no {@code Host} header. The real HTTP/2
 * round trip is in {@code ListenCancelTests}.
 */
class DnsRebindingProtectionTests {

	private final DnsRebindingProtection protection = new DnsRebindingProtection(true, List.of(), List.of());

	@Test
	void anHttp2RequestToALoopbackAuthorityIsAccepted() {
		assertThat(this.protection.refusal(http2("localhost"))).isNull();
		assertThat(this.protection.refusal(http2("[::1]"))).isNull();
		assertThat(this.protection.refusal(http2("::1"))).isNull();
	}

	@Test
	void anHttp2RequestToARebindingAuthorityIsRefusedOnALoopbackConnection() {
		assertThat(this.protection.refusal(http2("attacker.example"))).isEqualTo("Host not allowed: attacker.example");
	}

	@Test
	void anHttp11RequestWithoutAHostHeaderIsStillRefused() {
		MockHttpServletRequest request = loopback("HTTP/1.1");
		request.setServerName("localhost");
		request.removeHeader("Host");
		assertThat(this.protection.refusal(request)).isEqualTo("Missing Host header");
	}

	private static MockHttpServletRequest http2(String authority) {
		MockHttpServletRequest request = loopback("HTTP/2.0");
		request.setServerName(authority);
		request.removeHeader("Host");
		return request;
	}

	private static MockHttpServletRequest loopback(String protocol) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/mcp");
		request.setProtocol(protocol);
		request.setLocalAddr("127.0.0.1");
		return request;
	}

}
