package io.github.mcpsubscriptions.springai;

import java.security.Principal;
import java.util.Map;

import io.modelcontextprotocol.common.McpTransportContext;
import org.jspecify.annotations.Nullable;

/**
 * The {@link McpTransportContext} a Spring AI method receives: the caller, when known,
 * under {@value #PRINCIPAL}.
 */
final class SpringAiContexts {

	static final String PRINCIPAL = "principal";

	private SpringAiContexts() {
	}

	static McpTransportContext of(@Nullable Principal principal) {
		return (principal != null) ? McpTransportContext.create(Map.of(PRINCIPAL, principal))
				: McpTransportContext.EMPTY;
	}

}
