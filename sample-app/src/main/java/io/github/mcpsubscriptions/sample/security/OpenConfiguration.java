package io.github.mcpsubscriptions.sample.security;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Every profile but {@code secure}: the sample is open, as a local development server
 * (bound to 127.0.0.1, with the Origin and Host check of the MCP endpoint).
 */
@Configuration(proxyBeanMethods = false)
@Profile("!secure")
class OpenConfiguration {

	@Bean
	SecurityFilterChain openSecurity(HttpSecurity http) {
		return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

}
