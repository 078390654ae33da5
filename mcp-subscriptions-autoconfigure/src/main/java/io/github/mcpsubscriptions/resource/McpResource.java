package io.github.mcpsubscriptions.resource;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a Spring bean as an MCP resource: a static URI is a resource, an RFC
 * 6570 URI template (such as {@code catalog://products/{id}}) is a resource template.
 * <p>
 * Template variables bind to method parameters of the same name, or to parameters
 * annotated with {@link UriVariable}, converted with Spring's {@code ConversionService};
 * a {@link ResourceRequest} parameter receives the URI and all variables. The method
 * returns a {@code String} (text), a {@code byte[]} (a blob), a {@link ResourceContents}
 * or a list of them (full control), or any other object (written as JSON); {@code null}
 * or an empty {@code Optional} means the resource does not exist.
 * <p>
 * Not to be confused with Spring AI's annotation of the same simple name.
 *
 * @since 0.1.0
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface McpResource {

	/**
	 * The resource's URI, or a URI template for a resource template.
	 * @return the URI or template
	 */
	String uri();

	/**
	 * The resource's name; defaults to the method name.
	 * @return the name
	 */
	String name() default "";

	/**
	 * A human-readable title.
	 * @return the title
	 */
	String title() default "";

	/**
	 * What the resource is, for clients and models.
	 * @return the description
	 */
	String description() default "";

	/**
	 * The MIME type of the contents; defaults by return type ({@code text/plain},
	 * {@code application/octet-stream}, {@code application/json}).
	 * @return the MIME type
	 */
	String mimeType() default "";

	/**
	 * The size in bytes of the raw contents, if known; negative for unknown.
	 * @return the size
	 */
	long size() default -1;

	/**
	 * Who the resource is meant for.
	 * @return the audience, empty for unspecified
	 */
	Role[] audience() default {};

	/**
	 * How important the resource is, from 0 (least) to 1 (most); negative for
	 * unspecified.
	 * @return the priority
	 */
	double priority() default -1;

	/**
	 * When the resource last changed, as an ISO 8601 instant; empty for unspecified.
	 * @return the last modification time
	 */
	String lastModified() default "";

	/**
	 * How long, in milliseconds, clients of protocol 2026-07-28 may cache what is read;
	 * negative for the default ({@code mcp.resources.cache.ttl}).
	 * @return the time-to-live in milliseconds
	 */
	long ttlMs() default -1;

	/**
	 * Who may reuse a cached read (protocol 2026-07-28); {@code DEFAULT} for
	 * {@code mcp.resources.cache.scope}.
	 * @return the cache scope
	 */
	CacheScope cacheScope() default CacheScope.DEFAULT;

	/**
	 * Who may reuse a cached read.
	 */
	enum CacheScope {

		/** As configured globally. */
		DEFAULT,

		/** Anyone: the contents hold no user-specific data. */
		PUBLIC,

		/** Only the same authorization context. */
		PRIVATE

	}

	/**
	 * The audience of a resource.
	 */
	enum Role {

		/** The human user. */
		USER,

		/** The model. */
		ASSISTANT

	}

}
