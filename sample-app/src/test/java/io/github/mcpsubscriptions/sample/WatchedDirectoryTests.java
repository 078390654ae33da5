package io.github.mcpsubscriptions.sample;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.sample.files.WatchedDirectory;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The sample's watched directory with the official MCP Java SDK client: file changes on
 * disk reach directory and pattern subscriptions, and reads stay inside the directory.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class WatchedDirectoryTests {

	@TempDir
	static Path root;

	@DynamicPropertySource
	static void root(DynamicPropertyRegistry registry) {
		registry.add("sample.files.root", () -> root.toString());
	}

	@LocalServerPort
	private int port;

	@Autowired
	private WatchedDirectory directory;

	private final BlockingQueue<List<McpSchema.ResourceContents>> updates = new LinkedBlockingQueue<>();

	private McpSyncClient client;

	@BeforeEach
	void connect() {
		this.client = McpClient
			.sync(HttpClientStreamableHttpTransport.builder("http://localhost:" + this.port).endpoint("/mcp").build())
			.requestTimeout(Duration.ofSeconds(10))
			.resourcesUpdateConsumer(this.updates::add)
			.build();
		this.client.initialize();
	}

	@AfterEach
	void close() {
		this.client.closeGracefully();
	}

	@Test
	void directorySubscriptionSeesFileChanges() throws Exception {
		this.client.subscribeResource(new McpSchema.SubscribeRequest(this.directory.getRootUri()));
		Files.writeString(this.directory.getRoot().resolve("notes.txt"), "first note", StandardCharsets.UTF_8);
		McpSchema.TextResourceContents contents = nextText();
		assertThat(contents.uri()).isEqualTo(this.directory.getRootUri() + "notes.txt");
		assertThat(contents.text()).isEqualTo("first note");
	}

	@Test
	void patternSubscriptionSeesMatchingFilesOnly() throws Exception {
		this.client.subscribeResource(new McpSchema.SubscribeRequest(this.directory.getRootUri() + "?pattern=*.log"));
		Files.writeString(this.directory.getRoot().resolve("ignored.txt"), "not me", StandardCharsets.UTF_8);
		Files.writeString(this.directory.getRoot().resolve("app.log"), "error!", StandardCharsets.UTF_8);
		McpSchema.TextResourceContents contents = nextText();
		assertThat(contents.uri()).endsWith("/app.log");
		assertThat(contents.text()).isEqualTo("error!");
	}

	@Test
	void filesAreListedAndRead() throws Exception {
		Files.createDirectories(this.directory.getRoot().resolve("sub"));
		Files.writeString(this.directory.getRoot().resolve("sub/deep.md"), "# deep", StandardCharsets.UTF_8);
		assertThat(this.client.listResources().resources()).extracting(McpSchema.Resource::uri)
			.contains(this.directory.getRootUri(), this.directory.getRootUri() + "sub/deep.md");
		McpSchema.TextResourceContents read = (McpSchema.TextResourceContents) this.client
			.readResource(new McpSchema.ReadResourceRequest(this.directory.getRootUri() + "sub/deep.md"))
			.contents()
			.get(0);
		assertThat(read.text()).isEqualTo("# deep");
	}

	@Test
	void namesThatNeedEncodingAreNotifiedAndTheWatcherSurvivesThem() throws Exception {
		this.client.subscribeResource(new McpSchema.SubscribeRequest(this.directory.getRootUri()));
		Files.writeString(this.directory.getRoot().resolve("bad[1] x.txt"), "odd name", StandardCharsets.UTF_8);
		assertThat(nextText(this.directory.getRootUri() + "bad%5B1%5D%20x.txt").text()).isEqualTo("odd name");
		Files.writeString(this.directory.getRoot().resolve("après.txt"), "later", StandardCharsets.UTF_8);
		assertThat(nextText(this.directory.getRootUri() + "apr%C3%A8s.txt").text()).isEqualTo("later");
	}

	@Test
	void aFileIsNotifiedUnderTheUriItIsListedWith() throws Exception {
		// resources/list ({+path} expansion) and change notifications must name a file
		// alike, or an exact subscription to a listed file hears nothing: parentheses and
		// brackets are where they differed.
		String name = "Copy (2) [x].txt";
		Path file = this.directory.getRoot().resolve(name);
		Files.writeString(file, "first", StandardCharsets.UTF_8);
		String listed = this.client.listResources()
			.resources()
			.stream()
			.filter((resource) -> name.equals(resource.name()))
			.map(McpSchema.Resource::uri)
			.findFirst()
			.orElseThrow();
		this.client.subscribeResource(new McpSchema.SubscribeRequest(listed));
		Files.writeString(file, "second", StandardCharsets.UTF_8);
		String notified = nextText(listed).text();
		while (!notified.equals("second")) {
			// The SDK re-reads what it is told about: a late notice of the create may read "first".
			notified = nextText(listed).text();
		}
		McpSchema.ResourceContents read = this.client.readResource(new McpSchema.ReadResourceRequest(listed))
			.contents()
			.get(0);
		assertThat(read).isInstanceOfSatisfying(McpSchema.TextResourceContents.class,
				(text) -> assertThat(text.text()).isEqualTo("second"));
	}

	@Test
	void aNulInAFileUriIsNotFound() {
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> this.client
				.readResource(new McpSchema.ReadResourceRequest(this.directory.getRootUri() + "a%00b")))
			.satisfies((ex) -> assertThat(ex.getJsonRpcError().code()).isEqualTo(-32002));
	}

	@Test
	void readsCannotLeaveTheDirectory() {
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> this.client
			.readResource(new McpSchema.ReadResourceRequest(this.directory.getRootUri() + "../../etc/passwd")));
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> this.client
			.readResource(new McpSchema.ReadResourceRequest(this.directory.getRootUri() + "%2E%2E/%2E%2E/etc/passwd")));
	}

	private McpSchema.TextResourceContents nextText(String uri) throws InterruptedException {
		McpSchema.TextResourceContents text = nextText();
		while (!text.uri().equals(uri)) {
			// Earlier notices (a create then a modify of one file) may still be on their way.
			text = nextText();
		}
		return text;
	}

	private McpSchema.TextResourceContents nextText() throws InterruptedException {
		// The SDK re-reads each resource it is told about; skip notices of other files.
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
		while (System.nanoTime() < deadline) {
			List<McpSchema.ResourceContents> contents = this.updates.poll(1, TimeUnit.SECONDS);
			if (contents != null && !contents.isEmpty()
					&& contents.get(0) instanceof McpSchema.TextResourceContents text && !text.text().isEmpty()) {
				return text;
			}
		}
		throw new AssertionError("No notification within 15 s");
	}

}
