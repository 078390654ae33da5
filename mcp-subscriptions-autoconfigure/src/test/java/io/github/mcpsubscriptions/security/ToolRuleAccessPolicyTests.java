package io.github.mcpsubscriptions.security;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
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
 * The {@code @PreAuthorize} of a Spring AI tool's method, over a real port with method
 * security on: it decides who sees the tool in {@code tools/list} and who may call it, in
 * both eras; a tool without a rule is open to every authenticated caller.
 */
@SpringBootTest(classes = { McpTestApplication.class, ToolRuleAccessPolicyTests.Tools.class,
		ToolRuleAccessPolicyTests.Security.class }, webEnvironment = WebEnvironment.RANDOM_PORT)
class ToolRuleAccessPolicyTests {

	@LocalServerPort
	private int port;

	@Test
	void theRuleDecidesWhoSeesTheTool() throws Exception {
		McpTestClient admin = client("admin");
		assertThat(names(json(admin.call(admin.initialize(), "tools/list", null).body())))
			.containsExactly("change_price", "find_products");
		McpTestClient reader = client("reader");
		assertThat(names(json(reader.call(reader.initialize(), "tools/list", null).body())))
			.containsExactly("find_products");
		assertThat(names(json(reader.stateless("tools/list", "").body()))).containsExactly("find_products");
	}

	@Test
	void theRuleDecidesWhoMayCallTheTool() throws Exception {
		McpTestClient reader = client("reader");
		JsonNode refused = json(reader
			.call(reader.initialize(), "tools/call", "{\"name\":\"change_price\",\"arguments\":{\"price\":3}}")
			.body());
		assertThat(refused.get("error").get("code").intValue()).isEqualTo(-32602);
		assertThat(refused.get("error").get("message").stringValue()).isEqualTo("Unknown tool: change_price");
		JsonNode refusedStateless = json(
				reader.stateless("tools/call", "\"name\":\"change_price\",\"arguments\":{\"price\":3}").body());
		assertThat(refusedStateless.get("error").get("code").intValue()).isEqualTo(-32602);
		McpTestClient admin = client("admin");
		JsonNode changed = json(
				admin.call(admin.initialize(), "tools/call", "{\"name\":\"change_price\",\"arguments\":{\"price\":3}}")
					.body());
		assertThat(changed.get("result").get("content").get(0).get("text").stringValue()).isEqualTo("price is 3");
		JsonNode open = json(reader.stateless("tools/call", "\"name\":\"find_products\",\"arguments\":{}").body());
		assertThat(open.get("result").get("content").get(0).get("text").stringValue()).isEqualTo("lamp");
	}

	private static List<String> names(JsonNode response) {
		List<String> names = new ArrayList<>();
		response.get("result").get("tools").forEach((tool) -> names.add(tool.get("name").stringValue()));
		return names;
	}

	private McpTestClient client(String user) {
		String basic = Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
		return new McpTestClient(URI.create("http://localhost:" + this.port + "/mcp"), "Basic " + basic);
	}

	@Configuration(proxyBeanMethods = false)
	static class Tools {

		@Bean
		CatalogTools catalogTools() {
			return new CatalogTools();
		}

		@Bean
		ToolCallbackProvider catalogToolCallbacks(CatalogTools tools) {
			return MethodToolCallbackProvider.builder().toolObjects(tools).build();
		}

	}

	public static class CatalogTools {

		@Tool(name = "find_products", description = "Find products")
		public String findProducts() {
			return "lamp";
		}

		@Tool(name = "change_price", description = "Change a price")
		@PreAuthorize("hasAuthority('SCOPE_catalog:write')")
		public String changePrice(int price) {
			return "price is " + price;
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
