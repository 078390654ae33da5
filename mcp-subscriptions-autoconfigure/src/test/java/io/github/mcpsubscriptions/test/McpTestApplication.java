package io.github.mcpsubscriptions.test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * A bare application for real-port tests: only auto-configuration, no component scan.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class McpTestApplication {

}
