package io.github.mcpsubscriptions.test;

import java.io.IOException;
import java.security.Principal;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Stands in for authentication in tests: the {@code X-Test-User} header names the
 * request's principal.
 */
@Configuration(proxyBeanMethods = false)
public class TestUsers {

	/** Stands in for authentication: {@code X-Test-User} names the principal. */
	@Bean
	OncePerRequestFilter testUserFilter() {
		return new OncePerRequestFilter() {

			@Override
			protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
					throws ServletException, IOException {
				String user = request.getHeader("X-Test-User");
				if (user == null) {
					chain.doFilter(request, response);
					return;
				}
				Principal principal = () -> user;
				chain.doFilter(new HttpServletRequestWrapper(request) {

					@Override
					public Principal getUserPrincipal() {
						return principal;
					}

				}, response);
			}

		};
	}

}
