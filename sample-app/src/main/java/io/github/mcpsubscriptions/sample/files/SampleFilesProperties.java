package io.github.mcpsubscriptions.sample.files;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the sample's watched directory.
 *
 * @param root the directory served as {@code file:///} resources; created at start
 * @param maxListed the most files {@code resources/list} shows
 * @param watch whether this node publishes the directory's changes; in a cluster whose
 * nodes share one directory, only one of them should, or every change is published once
 * per node
 */
@ConfigurationProperties("sample.files")
public record SampleFilesProperties(Path root, Integer maxListed, Boolean watch) {

	public SampleFilesProperties {
		root = (root != null) ? root : Path.of("sample-data");
		maxListed = (maxListed != null) ? maxListed : 1000;
		watch = (watch != null) ? watch : Boolean.TRUE;
	}

}
