package io.github.mcpsubscriptions.events;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * A bare application whose auto-configuration package is this one, so that the event
 * types declared here are found as an application's would be.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class EventsTestApplication {

}
