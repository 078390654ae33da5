package io.github.mcpsubscriptions.autoconfigure;

import java.util.List;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code mcp.endpoint.protected-paths} names at least one path, in either
 * form ({@code a,b} or indexed): without paths the DNS-rebinding filter of the
 * application's own endpoints is not registered at all, since a disabled registration
 * makes the server log a line at start-up that reads like a fault.
 */
class OnProtectedPathsCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		List<String> paths = Binder.get(context.getEnvironment())
			.bind("mcp.endpoint.protected-paths", Bindable.listOf(String.class))
			.orElse(List.of());
		return paths.stream().anyMatch((path) -> !path.isBlank())
				? ConditionOutcome.match("mcp.endpoint.protected-paths names " + paths)
				: ConditionOutcome.noMatch("mcp.endpoint.protected-paths is empty");
	}

}
