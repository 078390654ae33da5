package com.example.shop;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class ShopApplication {

	public static void main(String[] args) {
		SpringApplication.run(ShopApplication.class, args);
	}

	// Every ToolCallbackProvider bean becomes MCP tools.
	@Bean
	ToolCallbackProvider orderToolCallbacks(OrderTools tools) {
		return MethodToolCallbackProvider.builder().toolObjects(tools).build();
	}

}
