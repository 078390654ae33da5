package io.github.mcpsubscriptions.security;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import io.github.mcpsubscriptions.prompt.McpPrompt;
import io.github.mcpsubscriptions.prompt.McpPromptArgument;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
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
 * The {@code @PreAuthorize} of an {@code @McpPrompt} method, over a real port with method
 * security on: it decides who sees the prompt in {@code prompts/list}, who may get it and
 * complete its arguments, in both eras; a prompt without a rule is open to every
 * authenticated caller.
 */
@SpringBootTest(classes = { McpTestApplication.class, PromptRuleAccessPolicyTests.Prompts.class,
		PromptRuleAccessPolicyTests.Security.class }, webEnvironment = WebEnvironment.RANDOM_PORT)
class PromptRuleAccessPolicyTests {

	@LocalServerPort
	private int port;

	@Test
	void theRuleDecidesWhoSeesThePrompt() throws Exception {
		McpTestClient admin = client("admin");
		assertThat(names(json(admin.call(admin.initialize(), "prompts/list", null).body()))).containsExactly("pricing",
				"welcome");
		McpTestClient reader = client("reader");
		assertThat(names(json(reader.call(reader.initialize(), "prompts/list", null).body())))
			.containsExactly("welcome");
		assertThat(names(json(reader.stateless("prompts/list", "").body()))).containsExactly("welcome");
	}

	@Test
	void theRuleDecidesWhoMayGetAndCompleteThePrompt() throws Exception {
		McpTestClient reader = client("reader");
		String session = reader.initialize();
		JsonNode refused = json(
				reader.call(session, "prompts/get", "{\"name\":\"pricing\",\"arguments\":{\"product\":\"lamp\"}}")
					.body());
		assertThat(refused.get("error").get("code").intValue()).isEqualTo(-32602);
		assertThat(refused.get("error").get("message").stringValue())
			.isEqualTo("Invalid params: unknown prompt: pricing");
		JsonNode refusedStateless = json(reader
			.stateless("prompts/get", "\"name\":\"pricing\",\"arguments\":{\"product\":\"lamp\"}", "Mcp-Name",
					"pricing")
			.body());
		assertThat(refusedStateless.get("error").get("code").intValue()).isEqualTo(-32602);
		String completion = "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"pricing\"},"
				+ "\"argument\":{\"name\":\"product\",\"value\":\"\"}}";
		assertThat(json(reader.call(session, "completion/complete", completion).body()).get("result")
			.get("completion")
			.get("values")).isEmpty();
		McpTestClient admin = client("admin");
		String adminSession = admin.initialize();
		JsonNode got = json(
				admin.call(adminSession, "prompts/get", "{\"name\":\"pricing\",\"arguments\":{\"product\":\"lamp\"}}")
					.body());
		assertThat(got.get("result").get("messages").get(0).get("content").get("text").stringValue())
			.isEqualTo("Suggest a price for lamp");
		assertThat(json(admin.call(adminSession, "completion/complete", completion).body()).get("result")
			.get("completion")
			.get("values")).extracting(JsonNode::stringValue).containsExactly("lamp", "desk");
		JsonNode open = json(reader.stateless("prompts/get", "\"name\":\"welcome\"", "Mcp-Name", "welcome").body());
		assertThat(open.get("result").get("messages").get(0).get("content").get("text").stringValue())
			.isEqualTo("Welcome");
	}

	private static List<String> names(JsonNode response) {
		List<String> names = new ArrayList<>();
		response.get("result").get("prompts").forEach((prompt) -> names.add(prompt.get("name").stringValue()));
		return names;
	}

	private McpTestClient client(String user) {
		String basic = Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
		return new McpTestClient(URI.create("http://localhost:" + this.port + "/mcp"), "Basic " + basic);
	}

	@Configuration(proxyBeanMethods = false)
	static class Prompts {

		@Bean
		CatalogPrompts catalogPrompts() {
			return new CatalogPrompts();
		}

	}

	public static class CatalogPrompts {

		@McpPrompt(description = "Greets the user")
		public String welcome() {
			return "Welcome";
		}

		@McpPrompt(description = "Prices a product")
		@PreAuthorize("hasAuthority('SCOPE_catalog:write')")
		public String pricing(@McpPromptArgument(values = { "lamp", "desk" }) String product) {
			return "Suggest a price for " + product;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebSecurity
	@EnableMethodSecurity
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
					User.withUsername("admin")
						.password("{noop}secret")
						.authorities("SCOPE_catalog:read", "SCOPE_catalog:write")
						.build(),
					User.withUsername("reader").password("{noop}secret").authorities("SCOPE_catalog:read").build());
		}

	}

}
