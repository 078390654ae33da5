package io.github.mcpsubscriptions.springai;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

import io.github.mcpsubscriptions.prompt.PromptRegistry;
import io.github.mcpsubscriptions.resource.ResourceCompleter;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.springai.SpringAiMcpPrompt.Completion;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.mcp.annotation.McpComplete;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.ai.mcp.annotation.McpResource;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.provider.complete.SyncStatelessMcpCompleteProvider;
import org.springframework.ai.mcp.annotation.provider.prompt.SyncStatelessMcpPromptProvider;
import org.springframework.ai.mcp.annotation.provider.resource.SyncStatelessMcpResourceProvider;
import org.springframework.ai.mcp.annotation.provider.tool.SyncStatelessMcpToolProvider;
import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Finds the methods annotated with Spring AI's MCP server annotations
 * ({@code org.springframework.ai.mcp.annotation}: {@code @McpTool}, {@code @McpResource},
 * {@code @McpPrompt}, {@code @McpComplete}) on all beans once the singletons exist, and
 * registers them with this server's {@link ToolRegistry}, {@link ResourceRegistry} and
 * {@link PromptRegistry}: they are listed, called, read and got in both eras, under the
 * same access policies and metrics as this project's own, and their resources can be
 * subscribed to. Spring AI's own stateless callbacks run the methods, so parameters and
 * results are bound as Spring AI's server binds them.
 * <p>
 * Methods that need what only the MCP Java SDK's server session has (its server exchange
 * or request context, for sampling, elicitation, roots or logging) or that return a
 * reactive type fail the start, all listed at once, rather than the first call.
 * <p>
 * It also completes the variables of Spring AI resource templates that have an
 * {@code @McpComplete} method.
 *
 * @since 0.1.0
 */
public class SpringAiAnnotationsRegistrar implements SmartInitializingSingleton, BeanFactoryAware, ResourceCompleter {

	private static final List<Class<? extends Annotation>> ANNOTATIONS = List.of(McpTool.class, McpResource.class,
			McpPrompt.class, McpComplete.class);

	private static final Set<String> SESSION_TYPES = Set.of("io.modelcontextprotocol.server.McpSyncServerExchange",
			"io.modelcontextprotocol.server.McpAsyncServerExchange",
			"org.springframework.ai.mcp.annotation.context.McpSyncRequestContext",
			"org.springframework.ai.mcp.annotation.context.McpAsyncRequestContext");

	private static final String PUBLISHER = "org.reactivestreams.Publisher";

	private static final String PRE_AUTHORIZE = "org.springframework.security.access.prepost.PreAuthorize";

	private final @Nullable ToolRegistry tools;

	private final ResourceRegistry resources;

	private final @Nullable PromptRegistry prompts;

	private final Map<String, Completion> resourceCompleters = new HashMap<>();

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	/**
	 * Create a registrar.
	 * @param tools where {@code @McpTool} methods go, or {@code null} when tools are not
	 * served
	 * @param resources where {@code @McpResource} methods go
	 * @param prompts where {@code @McpPrompt} methods go, or {@code null} when prompts
	 * are not served
	 */
	public SpringAiAnnotationsRegistrar(@Nullable ToolRegistry tools, ResourceRegistry resources,
			@Nullable PromptRegistry prompts) {
		this.tools = tools;
		this.resources = resources;
		this.prompts = prompts;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		ConfigurableListableBeanFactory factory = this.beanFactory;
		if (factory == null) {
			return;
		}
		List<AnnotatedBean> beans = annotatedBeans(factory);
		List<String> problems = new ArrayList<>();
		for (AnnotatedBean bean : beans) {
			bean.methods.forEach((method, annotation) -> check(bean.name, method, annotation, problems));
		}
		if (!problems.isEmpty()) {
			throw new UnsupportedSpringAiMethodException(problems);
		}
		Map<String, Completion> promptCompleters = new HashMap<>();
		for (AnnotatedBean bean : beans) {
			if (bean.has(McpComplete.class)) {
				SyncStatelessMcpCompleteProvider provider = new SyncStatelessMcpCompleteProvider(List.of(bean.bean));
				for (SyncCompletionSpecification specification : provider.getCompleteSpecifications()) {
					Completion completion = specification.completionHandler()::apply;
					if (specification.referenceKey() instanceof McpSchema.PromptReference prompt) {
						promptCompleters.put(prompt.name(), completion);
					}
					else if (specification.referenceKey() instanceof McpSchema.ResourceReference resource) {
						this.resourceCompleters.put(resource.uri(), completion);
					}
				}
			}
		}
		Set<Method> served = new HashSet<>();
		for (AnnotatedBean bean : beans) {
			registerTools(bean, served);
			registerResources(bean, served);
			registerPrompts(bean, promptCompleters, served);
		}
		for (AnnotatedBean bean : beans) {
			bean.methods.forEach((method, annotation) -> {
				if (!(annotation instanceof McpComplete) && !served.contains(method) && enabled(annotation)) {
					// Spring AI's stateless providers skip what they cannot call: say so
					// now,
					// not with a missing tool at the first call.
					problems.add(describe(bean.name, method, annotation)
							+ " is not accepted by Spring AI's stateless method callbacks (see its log above)");
				}
			});
		}
		if (!problems.isEmpty()) {
			throw new UnsupportedSpringAiMethodException(problems);
		}
	}

	private boolean enabled(Annotation annotation) {
		return (annotation instanceof McpTool) ? this.tools != null
				: !(annotation instanceof McpPrompt) || this.prompts != null;
	}

	private List<AnnotatedBean> annotatedBeans(ConfigurableListableBeanFactory factory) {
		List<AnnotatedBean> beans = new ArrayList<>();
		for (String beanName : factory.getBeanNamesForType(Object.class, false, false)) {
			if (ScopedProxyUtils.isScopedTarget(beanName)) {
				continue;
			}
			Class<?> type = AutoProxyUtils.determineTargetClass(factory, beanName);
			if (type == null || ANNOTATIONS.stream()
				.noneMatch((annotation) -> AnnotationUtils.isCandidateClass(type, annotation))) {
				continue;
			}
			Map<Method, Annotation> methods = MethodIntrospector.selectMethods(type,
					(MethodIntrospector.MetadataLookup<Annotation>) SpringAiAnnotationsRegistrar::annotation);
			if (!methods.isEmpty()) {
				beans.add(new AnnotatedBean(beanName, factory.getBean(beanName), methods));
			}
		}
		return beans;
	}

	private static @Nullable Annotation annotation(Method method) {
		for (Class<? extends Annotation> type : ANNOTATIONS) {
			Annotation annotation = AnnotatedElementUtils.findMergedAnnotation(method, type);
			if (annotation != null) {
				return annotation;
			}
		}
		return null;
	}

	private static String describe(String beanName, Method method, Annotation annotation) {
		return "@" + annotation.annotationType().getSimpleName() + " method "
				+ ClassUtils.getQualifiedMethodName(method) + " (bean '" + beanName + "')";
	}

	private static void check(String beanName, Method method, Annotation annotation, List<String> problems) {
		String where = describe(beanName, method, annotation);
		for (Class<?> parameter : method.getParameterTypes()) {
			if (SESSION_TYPES.contains(parameter.getName())) {
				problems.add(where + " takes " + parameter.getSimpleName()
						+ ", which only the MCP Java SDK's own server session provides (for sampling, elicitation, "
						+ "roots or logging to the client)");
			}
		}
		if (isReactive(method.getReturnType())) {
			problems.add(where + " returns the reactive type " + method.getReturnType().getSimpleName()
					+ ", which this servlet server does not subscribe to");
		}
	}

	private static boolean isReactive(Class<?> type) {
		ClassLoader loader = type.getClassLoader();
		if (!ClassUtils.isPresent(PUBLISHER, loader)) {
			return false;
		}
		return ClassUtils.resolveClassName(PUBLISHER, loader).isAssignableFrom(type);
	}

	private void registerTools(AnnotatedBean bean, Set<Method> served) {
		ToolRegistry registry = this.tools;
		if (registry == null || !bean.has(McpTool.class)) {
			return;
		}
		Map<String, Method> methods = new HashMap<>();
		bean.methods.forEach((method, annotation) -> {
			if (annotation instanceof McpTool tool) {
				methods.put(StringUtils.hasText(tool.name()) ? tool.name() : method.getName(), method);
			}
		});
		for (McpStatelessServerFeatures.SyncToolSpecification specification : new SyncStatelessMcpToolProvider(
				List.of(bean.bean))
			.getToolSpecifications()) {
			Method method = methods.get(specification.tool().name());
			if (method != null) {
				registry.register(
						new SpringAiMcpTool(specification.tool(), specification.callHandler(), method, bean.bean));
				served.add(method);
			}
		}
	}

	private void registerResources(AnnotatedBean bean, Set<Method> served) {
		if (!bean.has(McpResource.class)) {
			return;
		}
		Map<String, Method> methods = new HashMap<>();
		bean.methods.forEach((method, annotation) -> {
			if (annotation instanceof McpResource resource) {
				methods.put(resource.uri(), method);
			}
		});
		SyncStatelessMcpResourceProvider provider = new SyncStatelessMcpResourceProvider(List.of(bean.bean));
		for (McpStatelessServerFeatures.SyncResourceSpecification specification : provider
			.getResourceSpecifications()) {
			McpSchema.Resource resource = specification.resource();
			ResourceDefinition.Builder builder = builder(resource.uri(), specification.readHandler(),
					served(methods.get(resource.uri()), served))
				.name(resource.name())
				.title(resource.title())
				.description(resource.description())
				.mimeType(resource.mimeType())
				.annotations(McpSchemaConversions.annotations(resource.annotations()));
			if (resource.size() != null) {
				builder.size(resource.size());
			}
			this.resources.register(builder.build());
		}
		for (McpStatelessServerFeatures.SyncResourceTemplateSpecification specification : provider
			.getResourceTemplateSpecifications()) {
			McpSchema.ResourceTemplate template = specification.resourceTemplate();
			this.resources.register(builder(template.uriTemplate(), specification.readHandler(),
					served(methods.get(template.uriTemplate()), served))
				.name(template.name())
				.title(template.title())
				.description(template.description())
				.mimeType(template.mimeType())
				.annotations(McpSchemaConversions.annotations(template.annotations()))
				.build());
		}
	}

	private static @Nullable Method served(@Nullable Method method, Set<Method> served) {
		if (method != null) {
			served.add(method);
		}
		return method;
	}

	private static ResourceDefinition.Builder builder(String uri,
			BiFunction<McpTransportContext, McpSchema.ReadResourceRequest, McpSchema.ReadResourceResult> handler,
			@Nullable Method method) {
		ResourceDefinition.Builder builder = ResourceDefinition.builder(uri,
				(request) -> McpSchemaConversions
					.contents(handler.apply(McpTransportContext.EMPTY, new McpSchema.ReadResourceRequest(request.uri(),
							(request.meta() != null) ? McpSchemaConversions.readObject(request.meta()) : null))));
		// With Spring Security, the method's @PreAuthorize decides reads, subscriptions
		// and the changes told, as for this project's own @McpResource methods.
		String rule = (method != null) ? preAuthorize(method) : null;
		return builder.accessRule(rule);
	}

	private static @Nullable String preAuthorize(Method method) {
		MergedAnnotation<Annotation> annotation = MergedAnnotations
			.from(method, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
			.get(PRE_AUTHORIZE);
		if (!annotation.isPresent()) {
			annotation = MergedAnnotations
				.from(method.getDeclaringClass(), MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
				.get(PRE_AUTHORIZE);
		}
		return annotation.isPresent() ? annotation.getString("value") : null;
	}

	private void registerPrompts(AnnotatedBean bean, Map<String, Completion> completers, Set<Method> served) {
		PromptRegistry registry = this.prompts;
		if (registry == null || !bean.has(McpPrompt.class)) {
			return;
		}
		Map<String, Method> methods = new HashMap<>();
		bean.methods.forEach((method, annotation) -> {
			if (annotation instanceof McpPrompt prompt) {
				methods.put(StringUtils.hasText(prompt.name()) ? prompt.name() : method.getName(), method);
			}
		});
		for (McpStatelessServerFeatures.SyncPromptSpecification specification : new SyncStatelessMcpPromptProvider(
				List.of(bean.bean))
			.getPromptSpecifications()) {
			String name = specification.prompt().name();
			Method method = methods.get(name);
			if (method != null) {
				registry.register(new SpringAiMcpPrompt(specification.prompt(), specification.promptHandler(),
						completers.get(name), method, bean.bean));
				served.add(method);
			}
		}
	}

	@Override
	public @Nullable List<String> complete(String uriTemplate, String variable, String prefix,
			Map<String, String> context) {
		Completion completer = this.resourceCompleters.get(uriTemplate);
		if (completer == null) {
			return null;
		}
		McpSchema.CompleteRequest request = new McpSchema.CompleteRequest(new McpSchema.ResourceReference(uriTemplate),
				new McpSchema.CompleteRequest.CompleteArgument(variable, prefix),
				new McpSchema.CompleteRequest.CompleteContext(context));
		return values(completer.apply(McpTransportContext.EMPTY, request));
	}

	static List<String> values(McpSchema.@Nullable CompleteResult result) {
		if (result == null || result.completion() == null || result.completion().values() == null) {
			return List.of();
		}
		return result.completion().values();
	}

	private record AnnotatedBean(String name, Object bean, Map<Method, Annotation> methods) {

		AnnotatedBean {
			methods = new LinkedHashMap<>(methods);
		}

		boolean has(Class<? extends Annotation> type) {
			return this.methods.values().stream().anyMatch(type::isInstance);
		}

	}

}
