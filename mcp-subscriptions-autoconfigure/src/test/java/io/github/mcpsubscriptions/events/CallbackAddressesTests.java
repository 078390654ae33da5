package io.github.mcpsubscriptions.events;

import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.events.WebhookHttp.Answer;
import io.github.mcpsubscriptions.events.WebhookHttp.Failure;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Callback safety: the special-purpose ranges of the IANA registries are refused unless
 * allowed, embedded IPv4 addresses are judged as such, and the check is made at each
 * request, on the address then connected to.
 */
class CallbackAddressesTests {

	private final CallbackAddresses none = new CallbackAddresses(List.of());

	@Test
	void refusesWhatIsNotGloballyRoutable() throws Exception {
		for (String address : List.of("127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.1",
				"169.254.169.254", "100.64.0.1", "0.0.0.0", "192.0.2.1", "198.18.0.1", "224.0.0.1", "255.255.255.255",
				"::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "ff02::1", "2001:db8::1", "::ffff:127.0.0.1",
				"64:ff9b::a00:1", "64:ff9b::7f00:1")) {
			assertThat(this.none.permits(InetAddress.getByName(address))).as(address).isFalse();
		}
	}

	@Test
	void permitsWhatIsRoutable() throws Exception {
		for (String address : List.of("8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700::1111",
				"::ffff:8.8.8.8", "64:ff9b::808:808")) {
			assertThat(this.none.permits(InetAddress.getByName(address))).as(address).isTrue();
		}
	}

	@Test
	void permitsOnlyTheAllowedNetworksOfTheSpecialRanges() throws Exception {
		CallbackAddresses allowed = new CallbackAddresses(List.of("127.0.0.0/8", "fd00::/8", "10.1.0.0/16"));
		assertThat(allowed.permits(InetAddress.getByName("127.0.0.2"))).isTrue();
		assertThat(allowed.permits(InetAddress.getByName("fd12::1"))).isTrue();
		assertThat(allowed.permits(InetAddress.getByName("10.1.200.3"))).isTrue();
		assertThat(allowed.permits(InetAddress.getByName("10.2.0.1"))).isFalse();
		assertThat(allowed.permits(InetAddress.getByName("::1"))).isFalse();
		assertThat(allowed.permits(InetAddress.getByName("fc00::1"))).isFalse();
	}

	@Test
	void refusesBlocksThatAreNotCidr() {
		assertThatIllegalArgumentException().isThrownBy(() -> new CallbackAddresses(List.of("localhost")))
			.withMessageContaining("'localhost' is not a CIDR block");
		assertThatIllegalArgumentException().isThrownBy(() -> new CallbackAddresses(List.of("10.0.0.0/33")))
			.withMessageContaining("prefix length outside 0..32");
		assertThatIllegalArgumentException().isThrownBy(() -> new CallbackAddresses(List.of("::/129")))
			.withMessageContaining("0..128");
	}

	@Test
	void aHostIsResolvedToTheFirstPermittedAddressOrRefused() throws Exception {
		assertThat(new CallbackAddresses(List.of("127.0.0.0/8")).resolve("localhost").getHostAddress())
			.startsWith("127.");
		assertThatExceptionOfType(CallbackAddresses.RefusedAddressException.class)
			.isThrownBy(() -> this.none.resolve("localhost"))
			.withMessageContaining("mcp.events.webhooks.allowed-networks");
	}

	@Test
	void theAddressIsCheckedAtEachRequestNotOnlyAtSubscribe() throws Exception {
		// A receiver that passed at subscribe (when loopback was allowed) is refused at
		// delivery by a client that does not allow it: nothing reaches it.
		try (HttpsReceiver receiver = HttpsReceiver.start(Files.createTempDirectory("receiver"), 0);
				WebhookHttp http = new WebhookHttp(this.none, null, Duration.ofSeconds(2))) {
			Answer answer = http.post(URI.create(receiver.url("/hook")), Map.of(), "{}".getBytes());
			assertThat(answer.failure()).isEqualTo(Failure.REFUSED_ADDRESS);
			assertThat(receiver.at("/hook")).isEmpty();
			// And its certificate, which the JDK does not trust, fails TLS when loopback
			// is
			// allowed.
			try (WebhookHttp trusting = new WebhookHttp(new CallbackAddresses(List.of("127.0.0.0/8")), null,
					Duration.ofSeconds(5))) {
				assertThat(trusting.post(URI.create(receiver.url("/hook")), Map.of(), "{}".getBytes()).category())
					.isEqualTo("tls_error");
			}
		}
	}

}
