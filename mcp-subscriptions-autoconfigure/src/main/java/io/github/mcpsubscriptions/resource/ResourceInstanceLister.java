package io.github.mcpsubscriptions.resource;

/**
 * Lists the concrete instances of a resource template.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ResourceInstanceLister {

	/**
	 * List the instances.
	 * @return {@link ResourceInstance}s, {@code Map}s of variable values or, for a
	 * template with one variable, the values themselves
	 * @throws Exception if listing fails
	 */
	Iterable<?> list() throws Exception;

}
