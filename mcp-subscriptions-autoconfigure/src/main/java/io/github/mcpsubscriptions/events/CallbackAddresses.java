package io.github.mcpsubscriptions.events;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Which addresses webhooks may be sent to: every globally routable one, and of the
 * special-purpose ranges of the IANA IPv4 and IPv6 registries (loopback, private,
 * link-local, CGNAT, documentation, multicast, unspecified...) only those inside the
 * configured allowed networks. An IPv4-mapped or NAT64 address is judged by the IPv4
 * address it embeds.
 */
final class CallbackAddresses {

	/** The special-purpose ranges refused unless allowed. */
	private static final List<Network> BLOCKED = parse(List.of("0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10",
			"127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.31.196.0/24",
			"192.52.193.0/24", "192.88.99.0/24", "192.168.0.0/16", "192.175.48.0/24", "198.18.0.0/15",
			"198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "::/128", "::1/128", "::/96", "100::/64",
			"2001::/23", "2001:db8::/32", "2002::/16", "3fff::/20", "5f00::/16", "fc00::/7", "fe80::/10", "fec0::/10",
			"ff00::/8"));

	private static final byte[] NAT64_PREFIX = { 0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0 };

	private final List<Network> allowed;

	/**
	 * The addresses, with these networks allowed besides the routable ones.
	 * @param allowedNetworks blocks in CIDR notation, IPv4 or IPv6 ({@code 127.0.0.0/8},
	 * {@code fd00::/8}); a bare address is a block of one
	 * @throws IllegalArgumentException for a block that is not one
	 */
	CallbackAddresses(List<String> allowedNetworks) {
		this.allowed = parse(allowedNetworks);
	}

	private static List<Network> parse(List<String> blocks) {
		List<Network> networks = new ArrayList<>();
		for (String block : blocks) {
			networks.add(Network.parse(block.trim()));
		}
		return List.copyOf(networks);
	}

	/**
	 * Whether an address may be connected to.
	 * @param address the address
	 * @return whether it is routable or allowed
	 */
	boolean permits(InetAddress address) {
		byte[] bytes = judged(address);
		for (Network network : this.allowed) {
			if (network.contains(bytes) || network.contains(address.getAddress())) {
				return true;
			}
		}
		for (Network network : BLOCKED) {
			if (network.contains(bytes)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Resolve a host once and pick the address to connect to: the first it resolves to
	 * that is permitted. The caller connects to that very address, so that a second
	 * resolution (DNS rebinding) cannot put another one in its place.
	 * @param host the host of a callback URL
	 * @return the address
	 * @throws UnknownHostException if it does not resolve
	 * @throws RefusedAddressException if it resolves to no permitted address
	 */
	InetAddress resolve(String host) throws UnknownHostException {
		String literal = (host.startsWith("[") && host.endsWith("]")) ? host.substring(1, host.length() - 1) : host;
		InetAddress[] addresses = InetAddress.getAllByName(literal);
		for (InetAddress address : addresses) {
			if (permits(address)) {
				return address;
			}
		}
		throw new RefusedAddressException(host);
	}

	/**
	 * The bytes an address is judged by: the embedded IPv4 address of an IPv4-mapped,
	 * IPv4-compatible or NAT64 IPv6 address, else its own.
	 */
	private static byte[] judged(InetAddress address) {
		byte[] bytes = address.getAddress();
		if (address instanceof Inet6Address && bytes.length == 16) {
			boolean mapped = isZero(bytes, 0, 10) && bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
			boolean nat64 = Arrays.equals(bytes, 0, 12, NAT64_PREFIX, 0, 12);
			if (mapped || nat64) {
				return Arrays.copyOfRange(bytes, 12, 16);
			}
		}
		return bytes;
	}

	private static boolean isZero(byte[] bytes, int from, int to) {
		for (int i = from; i < to; i++) {
			if (bytes[i] != 0) {
				return false;
			}
		}
		return true;
	}

	/**
	 * A CIDR block.
	 *
	 * @param prefix the network's address
	 * @param length the prefix length in bits
	 */
	record Network(byte[] prefix, int length) {

		static Network parse(String block) {
			int slash = block.indexOf('/');
			String address = (slash >= 0) ? block.substring(0, slash) : block;
			if (address.isEmpty() || !address.matches("[0-9a-fA-F:.]+")) {
				// Only literals: a host name here would be resolved, which a block is
				// not.
				throw new IllegalArgumentException(
						"'" + block + "' is not a CIDR block such as 127.0.0.0/8 or fd00::/8");
			}
			byte[] bytes;
			try {
				bytes = InetAddress.getByName(address).getAddress();
			}
			catch (UnknownHostException ex) {
				throw new IllegalArgumentException(
						"'" + block + "' is not a CIDR block such as 127.0.0.0/8 or fd00::/8");
			}
			int max = bytes.length * 8;
			int length = max;
			if (slash >= 0) {
				try {
					length = Integer.parseInt(block.substring(slash + 1));
				}
				catch (NumberFormatException ex) {
					length = -1;
				}
				if (length < 0 || length > max) {
					throw new IllegalArgumentException(
							"'" + block + "' has a prefix length outside 0.." + max + " for its address");
				}
			}
			return new Network(bytes, length);
		}

		boolean contains(byte[] address) {
			if (address.length != this.prefix.length) {
				return false;
			}
			int full = this.length / 8;
			for (int i = 0; i < full; i++) {
				if (address[i] != this.prefix[i]) {
					return false;
				}
			}
			int rest = this.length % 8;
			if (rest == 0) {
				return true;
			}
			int mask = (0xff << (8 - rest)) & 0xff;
			return (address[full] & mask) == (this.prefix[full] & mask);
		}

	}

	/**
	 * A callback host that resolves only to addresses that are neither routable nor
	 * allowed.
	 */
	static final class RefusedAddressException extends UnknownHostException {

		RefusedAddressException(String host) {
			super("The callback host " + host
					+ " resolves to no globally routable address and to none inside mcp.events.webhooks.allowed-networks");
		}

	}

	static boolean isLiteral(@Nullable String host) {
		if (host == null) {
			return false;
		}
		return host.startsWith("[") || host.matches("[0-9.]+");
	}

	static String literal(InetAddress address) {
		return (address instanceof Inet4Address) ? address.getHostAddress() : "[" + address.getHostAddress() + "]";
	}

}
