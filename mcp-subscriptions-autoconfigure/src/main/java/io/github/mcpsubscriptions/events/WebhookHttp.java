package io.github.mcpsubscriptions.events;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

import io.github.mcpsubscriptions.events.CallbackAddresses.RefusedAddressException;
import org.jspecify.annotations.Nullable;

/**
 * The one way out to a callback: every verification POST and every delivery goes through
 * here. The host is resolved once, each time, the address checked
 * ({@link CallbackAddresses}) and then connected to as checked: the request is sent to
 * that IP literal, while TLS is told the original host name (SNI, which the JDK's trust
 * manager also verifies the certificate against) and, where the JVM allows it, the
 * {@code Host} header carries it too. Redirects are never followed; TLS trust is the
 * configured SSL bundle's, or the JDK's.
 * <p>
 * The JDK client takes SNI from its own parameters when the URI's host is a literal, so
 * there is one client per callback host name (a few kept, the least recent closed).
 */
final class WebhookHttp implements AutoCloseable {

	/** At most this much of an answer is read: a verification echo is tiny. */
	private static final int MAX_ANSWER = 64 * 1024;

	private static final int MAX_CLIENTS = 64;

	/**
	 * Whether the JVM lets a request set {@code Host} (it does with
	 * {@code -Djdk.httpclient.allowRestrictedHeaders=host}); otherwise the address
	 * connected to is the {@code Host}, while SNI and the certificate check keep the
	 * name.
	 */
	static final boolean HOST_HEADER = hostHeaderAllowed();

	private final CallbackAddresses addresses;

	private final @Nullable SSLContext sslContext;

	private final Duration timeout;

	private final Map<String, HttpClient> clients = new LinkedHashMap<>(16, 0.75f, true);

	WebhookHttp(CallbackAddresses addresses, @Nullable SSLContext sslContext, Duration timeout) {
		this.addresses = addresses;
		this.sslContext = sslContext;
		this.timeout = timeout;
	}

	private static boolean hostHeaderAllowed() {
		try {
			HttpRequest.newBuilder(URI.create("https://localhost/")).header("Host", "localhost");
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/**
	 * POST a body.
	 * @param url the callback URL (an {@code https} URL, checked at subscribe)
	 * @param headers the headers
	 * @param body the body, exactly as signed
	 * @return how it went
	 */
	Answer post(URI url, Map<String, String> headers, byte[] body) {
		String host = url.getHost();
		if (!"https".equalsIgnoreCase(url.getScheme()) || host == null) {
			return Answer.failed(Failure.CONNECTION_REFUSED);
		}
		InetAddress address;
		try {
			address = this.addresses.resolve(host);
		}
		catch (RefusedAddressException ex) {
			return Answer.failed(Failure.REFUSED_ADDRESS);
		}
		catch (UnknownHostException ex) {
			return Answer.failed(Failure.CONNECTION_REFUSED);
		}
		int port = (url.getPort() != -1) ? url.getPort() : 443;
		String path = (url.getRawPath() == null || url.getRawPath().isEmpty()) ? "/" : url.getRawPath();
		String query = (url.getRawQuery() != null) ? "?" + url.getRawQuery() : "";
		URI target = URI.create("https://" + CallbackAddresses.literal(address) + ":" + port + path + query);
		HttpRequest.Builder request = HttpRequest.newBuilder(target)
			.timeout(this.timeout)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofByteArray(body));
		if (HOST_HEADER) {
			request.header("Host", (url.getPort() == -1 || url.getPort() == 443) ? host : host + ":" + port);
		}
		headers.forEach(request::header);
		try {
			HttpResponse<InputStream> response = client(host).send(request.build(),
					HttpResponse.BodyHandlers.ofInputStream());
			try (InputStream in = response.body()) {
				return new Answer(response.statusCode(), in.readNBytes(MAX_ANSWER), null);
			}
		}
		catch (HttpConnectTimeoutException ex) {
			return Answer.failed(Failure.TIMEOUT);
		}
		catch (HttpTimeoutException ex) {
			return Answer.failed(Failure.TIMEOUT);
		}
		catch (SSLException ex) {
			return Answer.failed(Failure.TLS_ERROR);
		}
		catch (ConnectException ex) {
			return Answer.failed(Failure.CONNECTION_REFUSED);
		}
		catch (IOException ex) {
			return Answer
				.failed((ex.getCause() instanceof SSLException) ? Failure.TLS_ERROR : Failure.CONNECTION_REFUSED);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Answer.failed(Failure.CONNECTION_REFUSED);
		}
	}

	private HttpClient client(String host) {
		String sni = CallbackAddresses.isLiteral(host) ? "" : host;
		synchronized (this.clients) {
			HttpClient client = this.clients.get(sni);
			if (client == null) {
				client = newClient(sni);
				this.clients.put(sni, client);
				if (this.clients.size() > MAX_CLIENTS) {
					String eldest = this.clients.keySet().iterator().next();
					close(this.clients.remove(eldest));
				}
			}
			return client;
		}
	}

	private HttpClient newClient(String sni) {
		SSLContext context = this.sslContext;
		if (context == null) {
			try {
				context = SSLContext.getDefault();
			}
			catch (NoSuchAlgorithmException ex) {
				throw new IllegalStateException(ex);
			}
		}
		SSLParameters parameters = context.getDefaultSSLParameters();
		if (!sni.isEmpty()) {
			parameters.setServerNames(List.of(new SNIHostName(sni)));
		}
		return HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.followRedirects(HttpClient.Redirect.NEVER)
			.proxy(HttpClient.Builder.NO_PROXY)
			.connectTimeout(this.timeout)
			.sslContext(context)
			.sslParameters(parameters)
			.build();
	}

	private static void close(@Nullable HttpClient client) {
		// HttpClient is closeable from JDK 21 on; on 17 its threads end once unreachable.
		if (client instanceof AutoCloseable closeable) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				// Nothing to be done.
			}
		}
	}

	@Override
	public void close() {
		synchronized (this.clients) {
			this.clients.values().forEach(WebhookHttp::close);
			this.clients.clear();
		}
	}

	/** Why a request got no answer, by the draft's categories. */
	enum Failure {

		CONNECTION_REFUSED("connection_refused"), TIMEOUT("timeout"), TLS_ERROR("tls_error"),

		/** Not sent at all: the host resolves to no permitted address. */
		REFUSED_ADDRESS("connection_refused");

		private final String category;

		Failure(String category) {
			this.category = category;
		}

		String category() {
			return this.category;
		}

	}

	/**
	 * What a callback answered.
	 *
	 * @param status the HTTP status, or {@code 0} when there was no answer
	 * @param body the start of its body
	 * @param failure why there was no answer, or {@code null}
	 */
	record Answer(int status, byte[] body, @Nullable Failure failure) {

		static Answer failed(Failure failure) {
			return new Answer(0, new byte[0], failure);
		}

		boolean accepted() {
			return this.failure == null && this.status >= 200 && this.status < 300;
		}

		/**
		 * The draft's category of a failed request: never what the endpoint said.
		 * @return the category
		 */
		String category() {
			if (this.failure != null) {
				return this.failure.category();
			}
			return (this.status >= 500) ? "http_5xx" : "http_4xx";
		}

	}

}
