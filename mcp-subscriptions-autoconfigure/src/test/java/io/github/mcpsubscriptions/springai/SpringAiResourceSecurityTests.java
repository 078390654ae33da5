package io.github.mcpsubscriptions.springai;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.ai.mcp.annotation.McpResource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code @PreAuthorize} of a Spring AI {@code @McpResource} method is the resource's
 * rule, over a real port with Spring Security: it decides reads and subscriptions, the
 * URI variables by name.
 */
@SpringBootTest(classes = { McpTestApplication.class, SpringAiResourceSecurityTests.Profiles.class,
		SpringAiResourceSecurityTests.Security.class }, webEnvironment = WebEnvironment.RANDOM_PORT)
class SpringAiResourceSecurityTests {

	@LocalServerPort
	private int port;

	@Test
	void readsAndSubscriptionsFollowTheMethodsRule() throws Exception {
		McpTestClient ada = client("ada");
		String session = ada.initialize();
		JsonNode own = json(ada.call(session, "resources/read", "{\"uri\":\"user-profile://ada\"}").body());
		assertThat(own.get("result").get("contents").get(0).get("text").stringValue()).isEqualTo("profile of ada");
		JsonNode other = json(ada.call(session, "resources/read", "{\"uri\":\"user-profile://grace\"}").body());
		assertThat(other.get("error").get("code").intValue()).isEqualTo(-32002);
		// A URI of a template listed to the caller is accepted whether its resource is
		// hidden or does not exist (answered alike, docs/security.md): the rule judges
		// every delivery instead.
		JsonNode subscribeOther = json(
				ada.call(session, "resources/subscribe", "{\"uri\":\"user-profile://grace\"}").body());
		JsonNode subscribeNobody = json(
				ada.call(session, "resources/subscribe", "{\"uri\":\"user-profile://nobody\"}").body());
		assertThat(subscribeOther.get("result")).isEqualTo(subscribeNobody.get("result")).isNotNull();
		JsonNode subscribeOwn = json(
				ada.call(session, "resources/subscribe", "{\"uri\":\"user-profile://ada\"}").body());
		assertThat(subscribeOwn.has("error")).as(subscribeOwn.toString()).isFalse();
	}

	private McpTestClient client(String user) {
		String basic = Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
		return new McpTestClient(URI.create("http://localhost:" + this.port + "/mcp"), "Basic " + basic);
	}

	@Configuration(proxyBeanMethods = false)
	static class Profiles {

		@Bean
		ProfileResources profileResources() {
			return new ProfileResources();
		}

	}

	static class ProfileResources {

		@McpResource(uri = "user-profile://{username}", name = "user-profile", mimeType = "text/plain")
		@PreAuthorize("#username == authentication.name")
		String profile(String username) {
			return "profile of " + username;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebSecurity
	static class Security {

		@Bean
		SecurityFilterChain mcpSecurity(HttpSecurity http) {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.disable())
				.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
				.build();
		}

		@Bean
		UserDetailsService users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("ada").password("{noop}secret").authorities("SCOPE_profile").build(),
					User.withUsername("grace").password("{noop}secret").authorities("SCOPE_profile").build());
		}

	}

}
