package io.github.mcpsubscriptions.sample.files;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the sample's watched directory.
 *
 * @param root the directory served as {@code file:///} resources; created at start
 * @param maxListed the most files {@code resources/list} shows
 */
@ConfigurationProperties("sample.files")
public record SampleFilesProperties(Path root, Integer maxListed) {

	public SampleFilesProperties {
		root = (root != null) ? root : Path.of("sample-data");
		maxListed = (maxListed != null) ? maxListed : 1000;
	}

}
