package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.jpa.InvalidResourceEntityException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports {@code @McpResourceEntity} mappings that cannot be filled from their entities
 * as a start-up failure that lists each mistake and says how to mend it.
 */
class InvalidResourceEntityFailureAnalyzer extends AbstractFailureAnalyzer<InvalidResourceEntityException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidResourceEntityException cause) {
		StringBuilder description = new StringBuilder("JPA entities are mapped to MCP resources wrongly:\n");
		cause.getProblems().forEach((problem) -> description.append("\n    - ").append(problem));
		return new FailureAnalysis(description.toString(),
				"Correct the @McpResourceEntity URI templates named above. Each variable must name the entity's "
						+ "identifier property or one of its basic persistent properties, spelled as in the entity "
						+ "class; or set mcp.jpa.enabled=false to publish no entity changes.",
				cause);
	}

}
