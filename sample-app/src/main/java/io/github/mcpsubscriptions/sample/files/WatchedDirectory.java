package io.github.mcpsubscriptions.sample.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.notification.ResourceListChangedEvent;
import io.github.mcpsubscriptions.resource.ResourceContents;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceInstance;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.resource.ResourceRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * A directory served as {@code file:///} resources: the directory itself (its URI ends in
 * {@code /}, so a subscription to it covers every file below it, and
 * {@code ?pattern=*.log} narrows that) and every file in it, through the template
 * {@code file:///<root>/{+path}}. File-system changes become
 * {@link ResourceChangedEvent}s.
 * <p>
 * Resources are registered at run time through the {@link ResourceRegistry}, as the
 * directory's URI is only known once the application knows where it runs.
 */
@Component
public class WatchedDirectory implements SmartLifecycle {

	/** Who may read the files (enforced in profile {@code secure}). */
	static final String ACCESS_RULE = "hasAuthority('SCOPE_files:read')";

	private static final Log logger = LogFactory.getLog(WatchedDirectory.class);

	/** Characters other than letters and digits that a URI path holds unencoded. */
	private static final String PATH_CHARACTERS = "-._~!$&'()*+,;=:@/";

	private final Path root;

	private final String rootUri;

	private final int maxListed;

	private final boolean watch;

	private final ResourceRegistry registry;

	private final ApplicationEventPublisher events;

	private volatile WatchService watcher;

	private volatile Thread thread;

	private volatile boolean running;

	public WatchedDirectory(SampleFilesProperties properties, ResourceRegistry registry,
			ApplicationEventPublisher events) throws IOException {
		this.root = Files.createDirectories(properties.root()).toRealPath();
		this.rootUri = this.root.toUri().toString();
		this.maxListed = properties.maxListed();
		this.watch = properties.watch();
		this.registry = registry;
		this.events = events;
	}

	/**
	 * The directory's URI, ending in {@code /}.
	 * @return the URI
	 */
	public String getRootUri() {
		return this.rootUri;
	}

	public Path getRoot() {
		return this.root;
	}

	@Override
	public void start() {
		this.registry.register(ResourceDefinition.builder(this.rootUri, (request) -> listing())
			.name("sample-data")
			.title("The watched directory")
			.description("Every file of the sample's watched directory, as JSON. Subscribe to it to hear of any change "
					+ "below it; add ?pattern=*.log to narrow that.")
			.mimeType("application/json")
			.accessRule(ACCESS_RULE)
			.build());
		this.registry.register(ResourceDefinition.builder(this.rootUri + "{+path}", this::read)
			.name("file")
			.title("A file of the watched directory")
			.description("One file; text files as text, others as a blob.")
			.instanceLister(this::files)
			.accessRule(ACCESS_RULE)
			.build());
		this.running = true;
		if (!this.watch) {
			logger
				.info("Serving " + this.root + " as " + this.rootUri + " (its changes are published by another node)");
			return;
		}
		try {
			this.watcher = FileSystems.getDefault().newWatchService();
			registerTree(this.root);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot watch " + this.root, ex);
		}
		Thread watching = new Thread(this::watch, "sample-files-watcher");
		watching.setDaemon(true);
		watching.start();
		this.thread = watching;
		logger.info("Serving " + this.root + " as " + this.rootUri);
	}

	private Object read(ResourceRequest request) throws IOException {
		Optional<Path> file = resolve(request.variables().get("path"));
		if (file.isEmpty() || !Files.isRegularFile(file.get(), LinkOption.NOFOLLOW_LINKS)) {
			return null;
		}
		byte[] bytes = Files.readAllBytes(file.get());
		String type = Files.probeContentType(file.get());
		if (isText(type, file.get())) {
			return ResourceContents.text(request.uri(), (type != null) ? type : "text/plain",
					new String(bytes, StandardCharsets.UTF_8));
		}
		return ResourceContents.blob(request.uri(), (type != null) ? type : "application/octet-stream", bytes);
	}

	private static boolean isText(String type, Path file) {
		if (type != null) {
			return type.startsWith("text/") || type.endsWith("json") || type.endsWith("xml");
		}
		String name = file.getFileName().toString();
		return name.endsWith(".txt") || name.endsWith(".log") || name.endsWith(".md") || !name.contains(".");
	}

	/**
	 * A path below the root, or nothing: {@code ..} and links cannot leave the directory.
	 */
	private Optional<Path> resolve(String relative) {
		if (relative == null || relative.isEmpty()) {
			return Optional.empty();
		}
		Path candidate;
		try {
			candidate = this.root.resolve(relative).normalize();
		}
		catch (InvalidPathException ex) {
			// Not a name this file system can have (a NUL, say): no such file.
			return Optional.empty();
		}
		if (!candidate.startsWith(this.root)) {
			return Optional.empty();
		}
		try {
			Path real = candidate.toRealPath();
			return real.startsWith(this.root) ? Optional.of(real) : Optional.empty();
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

	private List<ResourceInstance> files() throws IOException {
		// The value is the encoded path, the same string change notifications use:
		// {+path}
		// keeps it as it is, so a listed URI is exactly the one its changes are sent for
		// (an
		// exact subscription compares strings).
		return regularFiles().stream()
			.map((path) -> new ResourceInstance(Map.of("path", encode(relative(path))), path.getFileName().toString(),
					null, null))
			.toList();
	}

	private List<String> listing() throws IOException {
		return regularFiles().stream().map(this::relative).toList();
	}

	private List<Path> regularFiles() throws IOException {
		try (Stream<Path> paths = Files.walk(this.root)) {
			return paths.filter((path) -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS))
				.limit(this.maxListed)
				.toList();
		}
	}

	private String relative(Path path) {
		return this.root.relativize(path).toString().replace('\\', '/');
	}

	private void registerTree(Path directory) throws IOException {
		try (Stream<Path> paths = Files.walk(directory)) {
			for (Path path : (Iterable<Path>) paths.filter(Files::isDirectory)::iterator) {
				path.register(this.watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
						StandardWatchEventKinds.ENTRY_DELETE);
			}
		}
	}

	private void watch() {
		try {
			while (true) {
				WatchKey key = this.watcher.take();
				Path directory = (Path) key.watchable();
				boolean listChanged = false;
				for (WatchEvent<?> event : key.pollEvents()) {
					if (event.kind() != StandardWatchEventKinds.ENTRY_MODIFY) {
						listChanged = true;
					}
					if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
						continue;
					}
					try {
						publish(directory, event);
					}
					catch (IOException | RuntimeException ex) {
						// One bad event (a vanished directory, a listener that threw)
						// must not
						// stop the watching of every later change.
						logger.warn("Could not publish the change of " + event.context() + " in " + directory, ex);
					}
				}
				if (listChanged) {
					try {
						this.events.publishEvent(new ResourceListChangedEvent(this));
					}
					catch (RuntimeException ex) {
						logger.warn("Could not publish that the files of " + directory + " changed", ex);
					}
				}
				if (!key.reset()) {
					key.cancel();
				}
			}
		}
		catch (InterruptedException | ClosedWatchServiceException ex) {
			// Stopped.
		}
	}

	private void publish(Path directory, WatchEvent<?> event) throws IOException {
		Path path = directory.resolve((Path) event.context());
		if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE && Files.isDirectory(path)) {
			registerTree(path);
		}
		String change = (event.kind() == StandardWatchEventKinds.ENTRY_CREATE) ? "created"
				: (event.kind() == StandardWatchEventKinds.ENTRY_DELETE) ? "deleted" : "modified";
		this.events
			.publishEvent(new ResourceChangedEvent(this.rootUri + encode(relative(path)), Map.of("change", change)));
	}

	/**
	 * The path as it appears in a file URI: every byte of its UTF-8 form percent-encoded
	 * except those a path may hold as they are (unreserved characters, sub-delimiters,
	 * {@code :}, {@code @} and {@code /}), so {@code bad[1] (2).txt} becomes
	 * {@code bad%5B1%5D%20(2).txt}; {@code ?}, {@code #} and {@code %} are encoded too.
	 */
	static String encode(String relative) {
		StringBuilder encoded = new StringBuilder(relative.length());
		for (byte b : relative.getBytes(StandardCharsets.UTF_8)) {
			int c = b & 0xFF;
			if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
					|| PATH_CHARACTERS.indexOf(c) >= 0) {
				encoded.append((char) c);
			}
			else {
				encoded.append('%')
					.append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
					.append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
			}
		}
		return encoded.toString();
	}

	@Override
	public void stop() {
		try {
			if (this.watcher != null) {
				this.watcher.close();
			}
		}
		catch (IOException ex) {
			// Closing is best effort.
		}
		if (this.thread != null) {
			this.thread.interrupt();
		}
		this.registry.unregister(this.rootUri);
		this.registry.unregister(this.rootUri + "{+path}");
		this.thread = null;
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
