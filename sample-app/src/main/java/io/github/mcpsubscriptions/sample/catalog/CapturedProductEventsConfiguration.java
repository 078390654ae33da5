package io.github.mcpsubscriptions.sample.catalog;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link CapturedProductEvents} where the database captures the catalogue
 * ({@code mcp.capture.enabled}, profile {@code postgres}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("mcp.capture.enabled")
class CapturedProductEventsConfiguration {

	@Bean
	CapturedProductEvents capturedProductEvents(ProductRepository products, ApplicationEventPublisher events) {
		return new CapturedProductEvents(products, events);
	}

}
