package io.github.mcpsubscriptions.tester.notes;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.McpResourceInstances;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A small application with the starter for the tester's own tests: notes 1 to 3 as
 * resources, and with {@code notes.bearer-token} set, an endpoint that wants that token.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class NotesApplication {

	static final Map<Long, String> NOTES = Map.of(1L, "milk", 2L, "bread", 3L, "tea");

	@Bean
	@ConditionalOnProperty("notes.bearer-token")
	FilterRegistrationBean<OncePerRequestFilter> bearerTokenFilter(@Value("${notes.bearer-token}") String token) {
		OncePerRequestFilter filter = new OncePerRequestFilter() {

			@Override
			protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
					throws ServletException, IOException {
				if (("Bearer " + token).equals(request.getHeader("Authorization"))) {
					chain.doFilter(request, response);
				}
				else {
					response.setHeader("WWW-Authenticate", "Bearer");
					response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
				}
			}

		};
		FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(filter);
		registration.addUrlPatterns("/mcp");
		return registration;
	}

	@Component
	static class NoteResources {

		@McpResource(uri = "notes://items", description = "Every note")
		List<String> notes() {
			return List.copyOf(NOTES.values());
		}

		@McpResource(uri = "notes://items/{id}", description = "One note")
		Optional<String> note(long id) {
			return Optional.ofNullable(NOTES.get(id));
		}

		@McpResourceInstances("notes://items/{id}")
		List<Long> ids() {
			return List.copyOf(NOTES.keySet());
		}

	}

}
