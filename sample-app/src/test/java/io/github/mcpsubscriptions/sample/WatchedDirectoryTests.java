package io.github.mcpsubscriptions.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.github.mcpsubscriptions.sample.files.WatchedDirectory;
import io.github.mcpsubscriptions.tester.AutoConfigureMcpTester;
import io.github.mcpsubscriptions.tester.McpErrorException;
import io.github.mcpsubscriptions.tester.McpNotification;
import io.github.mcpsubscriptions.tester.McpSession;
import io.github.mcpsubscriptions.tester.McpSubscription;
import io.github.mcpsubscriptions.tester.McpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The sample's watched directory: file changes on disk reach directory and pattern
 * subscriptions, and reads stay inside the directory.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureMcpTester
class WatchedDirectoryTests {

	@TempDir
	static Path root;

	@DynamicPropertySource
	static void root(DynamicPropertyRegistry registry) {
		registry.add("sample.files.root", () -> root.toString());
	}

	@Autowired
	private McpTester mcp;

	@Autowired
	private WatchedDirectory directory;

	private McpSession session;

	@BeforeEach
	void connect() {
		this.session = this.mcp.session();
	}

	@AfterEach
	void close() {
		this.session.close();
	}

	@Test
	void directorySubscriptionSeesFileChanges() throws IOException {
		McpSubscription files = this.session.subscribe(this.directory.getRootUri());
		write("notes.txt", "first note");
		String uri = this.directory.getRootUri() + "notes.txt";
		next(files, uri);
		assertThat(this.session.read(uri).text()).isEqualTo("first note");
	}

	@Test
	void patternSubscriptionSeesMatchingFilesOnly() throws IOException {
		McpSubscription logs = this.session.subscribe(this.directory.getRootUri() + "?pattern=*.log");
		write("ignored.txt", "not me");
		write("app.log", "error!");
		McpNotification notification = logs.awaitNotification();
		assertThat(notification.uri()).endsWith("/app.log");
		assertThat(this.session.read(notification.uri()).text()).isEqualTo("error!");
	}

	@Test
	void filesAreListedAndRead() throws IOException {
		Files.createDirectories(this.directory.getRoot().resolve("sub"));
		write("sub/deep.md", "# deep");
		assertThat(this.session.listResources().uris()).contains(this.directory.getRootUri(),
				this.directory.getRootUri() + "sub/deep.md");
		assertThat(this.session.read(this.directory.getRootUri() + "sub/deep.md").text()).isEqualTo("# deep");
	}

	@Test
	void namesThatNeedEncodingAreNotifiedAndTheWatcherSurvivesThem() throws IOException {
		McpSubscription files = this.session.subscribe(this.directory.getRootUri());
		write("bad[1] x.txt", "odd name");
		String odd = this.directory.getRootUri() + "bad%5B1%5D%20x.txt";
		next(files, odd);
		assertThat(this.session.read(odd).text()).isEqualTo("odd name");
		write("après.txt", "later");
		String accented = this.directory.getRootUri() + "apr%C3%A8s.txt";
		next(files, accented);
		assertThat(this.session.read(accented).text()).isEqualTo("later");
	}

	@Test
	void aFileIsNotifiedUnderTheUriItIsListedWith() throws IOException {
		// resources/list ({+path} expansion) and change notifications must name a file
		// alike, or an exact subscription to a listed file hears nothing: parentheses and
		// brackets are where they differed.
		String name = "Copy (2) [x].txt";
		write(name, "first");
		String listed = this.session.listResources()
			.json()
			.get("resources")
			.valueStream()
			.filter((resource) -> name.equals(resource.path("name").stringValue()))
			.map((resource) -> resource.get("uri").stringValue())
			.findFirst()
			.orElseThrow();
		McpSubscription file = this.session.subscribe(listed);
		write(name, "second");
		next(file, listed);
		assertThat(this.session.read(listed).text()).isEqualTo("second");
	}

	@Test
	void aNulInAFileUriIsNotFound() {
		assertThatExceptionOfType(McpErrorException.class)
			.isThrownBy(() -> this.session.read(this.directory.getRootUri() + "a%00b"))
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo(-32002));
	}

	@Test
	void readsCannotLeaveTheDirectory() {
		assertThatExceptionOfType(McpErrorException.class)
			.isThrownBy(() -> this.session.read(this.directory.getRootUri() + "../../etc/passwd"));
		assertThatExceptionOfType(McpErrorException.class)
			.isThrownBy(() -> this.session.read(this.directory.getRootUri() + "%2E%2E/%2E%2E/etc/passwd"));
	}

	private void write(String name, String text) throws IOException {
		Files.writeString(this.directory.getRoot().resolve(name), text, StandardCharsets.UTF_8);
	}

	/**
	 * Earlier notices (of another test's files, or a create before a modify) may come
	 * first.
	 */
	private static McpNotification next(McpSubscription subscription, String uri) {
		McpNotification notification = subscription.awaitNotification();
		while (!notification.uri().equals(uri)) {
			notification = subscription.awaitNotification();
		}
		return notification;
	}

}
