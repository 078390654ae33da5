package io.github.mcpsubscriptions.resource;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * A resource or resource template the server offers: its metadata and how to read it.
 * Create one with {@link #builder(String, ResourceReader)} to register it at run time
 * with the {@link ResourceRegistry}.
 *
 * @since 0.1.0
 */
public final class ResourceDefinition {

	private final String uri;

	private final @Nullable UriTemplate template;

	private final String name;

	private final @Nullable String title;

	private final @Nullable String description;

	private final @Nullable String mimeType;

	private final @Nullable Long size;

	private final @Nullable ResourceAnnotations annotations;

	private final ResourceReader reader;

	private final @Nullable ResourceInstanceLister instanceLister;

	private final @Nullable CacheHints cacheHints;

	private final @Nullable String accessRule;

	private final @Nullable ResourceMethod method;

	private ResourceDefinition(Builder builder) {
		this.uri = builder.uri;
		this.template = UriTemplate.isTemplate(builder.uri) ? UriTemplate.parse(builder.uri) : null;
		this.name = builder.name;
		this.title = builder.title;
		this.description = builder.description;
		this.mimeType = builder.mimeType;
		this.size = builder.size;
		this.annotations = (builder.annotations != null && !builder.annotations.isEmpty()) ? builder.annotations : null;
		this.reader = builder.reader;
		this.instanceLister = builder.instanceLister;
		this.cacheHints = builder.cacheHints;
		this.accessRule = builder.accessRule;
		this.method = builder.method;
		if (this.instanceLister != null && this.template == null) {
			throw new IllegalArgumentException("Only a resource template can list instances, not " + this.uri);
		}
	}

	/**
	 * Start a definition.
	 * @param uri a URI (a resource) or an RFC 6570 URI template (a resource template)
	 * @param reader reads the resource
	 * @return a builder whose name defaults to the URI
	 * @throws IllegalArgumentException if the URI is empty or the template is invalid
	 */
	public static Builder builder(String uri, ResourceReader reader) {
		return new Builder(uri, reader);
	}

	/**
	 * The URI, or the URI template of a resource template.
	 * @return the URI or template text
	 */
	public String getUri() {
		return this.uri;
	}

	/**
	 * Whether this is a resource template.
	 * @return whether the URI is a template
	 */
	public boolean isTemplate() {
		return this.template != null;
	}

	/**
	 * The parsed template.
	 * @return the template, or {@code null} for a static resource
	 */
	public @Nullable UriTemplate getTemplate() {
		return this.template;
	}

	public String getName() {
		return this.name;
	}

	public @Nullable String getTitle() {
		return this.title;
	}

	public @Nullable String getDescription() {
		return this.description;
	}

	public @Nullable String getMimeType() {
		return this.mimeType;
	}

	public @Nullable Long getSize() {
		return this.size;
	}

	public @Nullable ResourceAnnotations getAnnotations() {
		return this.annotations;
	}

	public ResourceReader getReader() {
		return this.reader;
	}

	public @Nullable ResourceInstanceLister getInstanceLister() {
		return this.instanceLister;
	}

	/**
	 * How clients (2026 era) may cache what is read, if this resource differs from the
	 * default.
	 * @return the hints, or {@code null} for the default
	 */
	public @Nullable CacheHints getCacheHints() {
		return this.cacheHints;
	}

	/**
	 * Who may read this resource, subscribe to it and be told of its changes: an
	 * expression for the application's security integration (with Spring Security, a SpEL
	 * expression as in {@code @PreAuthorize}, the URI variables by name).
	 * @return the rule, or {@code null} for none stated here
	 */
	public @Nullable String getAccessRule() {
		return this.accessRule;
	}

	/**
	 * The {@link McpResource} method that serves this resource.
	 * @return the method, or {@code null} for a definition registered at run time
	 */
	public @Nullable ResourceMethod getMethod() {
		return this.method;
	}

	/**
	 * A copy of this definition that lists its instances with the given lister.
	 * @param lister the lister
	 * @return the copy
	 */
	public ResourceDefinition withInstanceLister(ResourceInstanceLister lister) {
		return toBuilder().instanceLister(lister).build();
	}

	private Builder toBuilder() {
		Builder builder = new Builder(this.uri, this.reader).name(this.name)
			.title(this.title)
			.description(this.description)
			.mimeType(this.mimeType)
			.annotations(this.annotations);
		builder.size = this.size;
		builder.instanceLister = this.instanceLister;
		builder.cacheHints = this.cacheHints;
		builder.accessRule = this.accessRule;
		builder.method = this.method;
		return builder;
	}

	@Override
	public String toString() {
		return (isTemplate() ? "resource template " : "resource ") + this.uri;
	}

	/**
	 * Builds a {@link ResourceDefinition}.
	 *
	 * @since 0.1.0
	 */
	public static final class Builder {

		private final String uri;

		private final ResourceReader reader;

		private String name;

		private @Nullable String title;

		private @Nullable String description;

		private @Nullable String mimeType;

		private @Nullable Long size;

		private @Nullable ResourceAnnotations annotations;

		private @Nullable ResourceInstanceLister instanceLister;

		private @Nullable CacheHints cacheHints;

		private @Nullable String accessRule;

		private @Nullable ResourceMethod method;

		private Builder(String uri, ResourceReader reader) {
			if (!StringUtils.hasText(uri)) {
				throw new IllegalArgumentException("A resource URI must not be empty");
			}
			this.uri = uri;
			this.reader = Objects.requireNonNull(reader, "reader");
			this.name = uri;
		}

		public Builder name(String name) {
			this.name = name;
			return this;
		}

		public Builder title(@Nullable String title) {
			this.title = title;
			return this;
		}

		public Builder description(@Nullable String description) {
			this.description = description;
			return this;
		}

		public Builder mimeType(@Nullable String mimeType) {
			this.mimeType = mimeType;
			return this;
		}

		public Builder size(long size) {
			this.size = (size >= 0) ? size : null;
			return this;
		}

		public Builder annotations(@Nullable ResourceAnnotations annotations) {
			this.annotations = annotations;
			return this;
		}

		/**
		 * List the template's instances in {@code resources/list}.
		 * @param instanceLister the lister
		 * @return this builder
		 */
		public Builder instanceLister(@Nullable ResourceInstanceLister instanceLister) {
			this.instanceLister = instanceLister;
			return this;
		}

		/**
		 * How clients (2026 era) may cache what is read.
		 * @param cacheHints the hints, or {@code null} for the default
		 * @return this builder
		 */
		public Builder cacheHints(@Nullable CacheHints cacheHints) {
			this.cacheHints = cacheHints;
			return this;
		}

		/**
		 * Who may read the resource, subscribe to it and be told of its changes; see
		 * {@link ResourceDefinition#getAccessRule()}.
		 * @param accessRule the rule, or {@code null} for none
		 * @return this builder
		 */
		public Builder accessRule(@Nullable String accessRule) {
			this.accessRule = accessRule;
			return this;
		}

		Builder method(ResourceMethod method) {
			this.method = method;
			return this;
		}

		public ResourceDefinition build() {
			return new ResourceDefinition(this);
		}

	}

}
