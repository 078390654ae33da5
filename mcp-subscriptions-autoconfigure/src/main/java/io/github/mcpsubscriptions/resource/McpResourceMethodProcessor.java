package io.github.mcpsubscriptions.resource;

import java.io.InputStream;
import java.io.Reader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.stream.BaseStream;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link McpResource} and {@link McpResourceInstances} methods on all beans once
 * the singletons exist, validates them, and registers them with the
 * {@link ResourceRegistry}. Every mistake is collected and reported at once, and the
 * application does not start.
 *
 * @since 0.1.0
 */
public class McpResourceMethodProcessor implements SmartInitializingSingleton, BeanFactoryAware {

	private static final Set<Class<?>> UNSUPPORTED_RETURN_TYPES = Set.of(void.class, Void.class, Future.class,
			CompletionStage.class, InputStream.class, Reader.class, Iterator.class, BaseStream.class);

	private static final String PUBLISHER = "org.reactivestreams.Publisher";

	private final ResourceRegistry registry;

	private final ConversionService conversionService;

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	public McpResourceMethodProcessor(ResourceRegistry registry, ConversionService conversionService) {
		this.registry = registry;
		this.conversionService = conversionService;
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
		List<String> problems = new ArrayList<>();
		Map<String, ResourceDefinition> definitions = new LinkedHashMap<>();
		Map<String, String> declaredBy = new HashMap<>();
		Map<String, ResourceInstanceLister> listers = new LinkedHashMap<>();
		for (String beanName : factory.getBeanNamesForType(Object.class, false, false)) {
			if (ScopedProxyUtils.isScopedTarget(beanName)) {
				continue;
			}
			Class<?> type = AutoProxyUtils.determineTargetClass(factory, beanName);
			if (type == null || !(AnnotationUtils.isCandidateClass(type, McpResource.class)
					|| AnnotationUtils.isCandidateClass(type, McpResourceInstances.class))) {
				continue;
			}
			Map<Method, McpResource> resources = MethodIntrospector.selectMethods(type,
					(MethodIntrospector.MetadataLookup<McpResource>) (method) -> AnnotatedElementUtils
						.findMergedAnnotation(method, McpResource.class));
			Map<Method, McpResourceInstances> instances = MethodIntrospector.selectMethods(type,
					(MethodIntrospector.MetadataLookup<McpResourceInstances>) (method) -> AnnotatedElementUtils
						.findMergedAnnotation(method, McpResourceInstances.class));
			if (resources.isEmpty() && instances.isEmpty()) {
				continue;
			}
			Object bean = factory.getBean(beanName);
			resources.forEach((method, annotation) -> {
				String where = describe(beanName, method);
				try {
					ResourceDefinition definition = define(bean, method, annotation);
					String previous = declaredBy.putIfAbsent(definition.getUri(), where);
					if (previous != null) {
						problems.add(where + ": duplicate URI '" + definition.getUri() + "', already declared by "
								+ previous);
					}
					else {
						definitions.put(definition.getUri(), definition);
					}
				}
				catch (IllegalArgumentException ex) {
					problems.add(where + ": " + ex.getMessage());
				}
			});
			instances.forEach((method, annotation) -> {
				String where = describe(beanName, method);
				try {
					if (listers.put(annotation.value(), lister(bean, method)) != null) {
						problems
							.add(where + ": a second @McpResourceInstances method for '" + annotation.value() + "'");
					}
				}
				catch (IllegalArgumentException ex) {
					problems.add(where + ": " + ex.getMessage());
				}
			});
		}
		listers.forEach((template, lister) -> {
			ResourceDefinition definition = definitions.get(template);
			if (definition == null || !definition.isTemplate()) {
				problems.add("@McpResourceInstances(\"" + template
						+ "\") names no resource template declared with @McpResource");
			}
			else {
				definitions.put(template, definition.withInstanceLister(lister));
			}
		});
		if (!problems.isEmpty()) {
			throw new InvalidMcpResourceException(problems);
		}
		for (ResourceDefinition definition : definitions.values()) {
			try {
				this.registry.register(definition);
			}
			catch (IllegalStateException ex) {
				problems.add(declaredBy.get(definition.getUri()) + ": " + ex.getMessage());
			}
		}
		if (!problems.isEmpty()) {
			throw new InvalidMcpResourceException(problems);
		}
	}

	private static String describe(String beanName, Method method) {
		return "method " + ClassUtils.getQualifiedMethodName(method) + " (bean '" + beanName + "')";
	}

	private ResourceDefinition define(Object bean, Method method, McpResource annotation) {
		checkReturnType(method);
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		ResourceMethod resourceMethod = resourceMethod(bean, invocable, method, annotation.uri());
		ResourceDefinition.Builder builder = ResourceDefinition
			.builder(annotation.uri(), reader(resourceMethod, invocable))
			.method(resourceMethod)
			.name(StringUtils.hasText(annotation.name()) ? annotation.name() : method.getName())
			.title(emptyToNull(annotation.title()))
			.description(emptyToNull(annotation.description()))
			.mimeType(StringUtils.hasText(annotation.mimeType()) ? annotation.mimeType()
					: ResourceContentMapper.defaultMimeType(method.getReturnType()))
			.size(annotation.size())
			.annotations(annotations(annotation))
			.cacheHints(cacheHints(annotation));
		return builder.build();
	}

	/**
	 * The annotation's cache hints; a half-given pair takes the other half from the
	 * global default when the result is written, so only a full pair is kept here.
	 */
	private static @Nullable CacheHints cacheHints(McpResource annotation) {
		if (annotation.ttlMs() < 0 && annotation.cacheScope() == McpResource.CacheScope.DEFAULT) {
			return null;
		}
		if (annotation.ttlMs() < 0 || annotation.cacheScope() == McpResource.CacheScope.DEFAULT) {
			throw new IllegalArgumentException("ttlMs and cacheScope go together: set both, or neither for the "
					+ "defaults (mcp.resources.cache.*)");
		}
		return new CacheHints(Duration.ofMillis(annotation.ttlMs()),
				CacheHints.Scope.valueOf(annotation.cacheScope().name()));
	}

	private static void checkReturnType(Method method) {
		Class<?> type = method.getReturnType();
		for (Class<?> unsupported : UNSUPPORTED_RETURN_TYPES) {
			if (unsupported.isAssignableFrom(type)) {
				throw new IllegalArgumentException("unsupported return type " + type.getName()
						+ "; return a String, byte[], ResourceContents, a List of them, Optional or any object for JSON");
			}
		}
		if (isPublisher(type)) {
			throw new IllegalArgumentException("unsupported return type " + type.getName()
					+ ": reactive types are not supported; return the value itself");
		}
	}

	private static boolean isPublisher(Class<?> type) {
		for (Class<?> candidate : ClassUtils.getAllInterfacesForClassAsSet(type)) {
			if (candidate.getName().equals(PUBLISHER)) {
				return true;
			}
		}
		return type.getName().equals(PUBLISHER);
	}

	private ResourceMethod resourceMethod(Object bean, Method invocable, Method declared, String uri) {
		List<String> variables = UriTemplate.isTemplate(uri) ? UriTemplate.parse(uri).getVariableNames() : List.of();
		Set<String> optional = UriTemplate.isTemplate(uri) ? optionalVariables(UriTemplate.parse(uri)) : Set.of();
		int count = declared.getParameterCount();
		String[] names = new String[count];
		TypeDescriptor[] types = new TypeDescriptor[count];
		boolean takesRequest = false;
		List<String> bound = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			MethodParameter parameter = new MethodParameter(declared, i);
			parameter.initParameterNameDiscovery(this.parameterNames);
			types[i] = new TypeDescriptor(parameter);
			if (parameter.getParameterType() == ResourceRequest.class) {
				takesRequest = true;
				continue;
			}
			UriVariable variable = parameter.getParameterAnnotation(UriVariable.class);
			String name = (variable != null) ? variable.value() : parameter.getParameterName();
			if (name == null) {
				throw new IllegalArgumentException("cannot tell which URI variable parameter " + i
						+ " binds to; compile with -parameters or annotate it with @UriVariable");
			}
			if (!variables.contains(name)) {
				throw new IllegalArgumentException("parameter '" + name + "' is not a variable of '" + uri
						+ "' (variables: " + variables + "); only URI variables and ResourceRequest can be parameters");
			}
			if (optional.contains(name) && parameter.getParameterType().isPrimitive()) {
				throw new IllegalArgumentException("parameter '" + name
						+ "' binds to an optional query variable and cannot be a primitive; use a wrapper type");
			}
			names[i] = name;
			bound.add(name);
		}
		if (!takesRequest) {
			for (String variable : variables) {
				if (!bound.contains(variable)) {
					throw new IllegalArgumentException("URI variable '" + variable + "' of '" + uri
							+ "' has no parameter; add a parameter of that name (or @UriVariable(\"" + variable
							+ "\")), or take a ResourceRequest");
				}
			}
		}
		ReflectionUtils.makeAccessible(invocable);
		return new ResourceMethod(bean, declared, names, types, this.conversionService);
	}

	private static ResourceReader reader(ResourceMethod resourceMethod, Method invocable) {
		return (request) -> {
			Object[] args = resourceMethod.arguments(request);
			// No such resource when a variable does not convert: "abc" is not a product
			// id.
			return (args != null) ? invoke(resourceMethod.getBean(), invocable, args) : null;
		};
	}

	private static Set<String> optionalVariables(UriTemplate template) {
		Set<String> optional = new HashSet<>(template.getVariableNames());
		// Path variables must match at least one character; only query variables may be
		// absent.
		for (String name : template.getVariableNames()) {
			if (template.getTemplate().contains("{" + name + "}")
					|| template.getTemplate().contains("{+" + name + "}")) {
				optional.remove(name);
			}
		}
		return optional;
	}

	private static ResourceInstanceLister lister(Object bean, Method method) {
		if (method.getParameterCount() != 0) {
			throw new IllegalArgumentException("an @McpResourceInstances method takes no parameters");
		}
		Class<?> type = method.getReturnType();
		if (!Iterable.class.isAssignableFrom(type) && !type.isArray()) {
			throw new IllegalArgumentException("unsupported return type " + type.getName()
					+ "; an @McpResourceInstances method returns a collection or an array");
		}
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		ReflectionUtils.makeAccessible(invocable);
		return () -> {
			Object result = invoke(bean, invocable, new Object[0]);
			if (result == null) {
				return List.of();
			}
			return (result instanceof Object[] array) ? Arrays.asList(array) : (Iterable<?>) result;
		};
	}

	private static @Nullable Object invoke(Object bean, Method method, Object[] args) throws Exception {
		try {
			return method.invoke(bean, args);
		}
		catch (InvocationTargetException ex) {
			Throwable cause = ex.getTargetException();
			if (cause instanceof Exception exception) {
				throw exception;
			}
			throw (Error) cause;
		}
	}

	private static @Nullable ResourceAnnotations annotations(McpResource annotation) {
		List<String> audience = (annotation.audience().length > 0)
				? Arrays.stream(annotation.audience()).map((role) -> role.name().toLowerCase(Locale.ROOT)).toList()
				: null;
		Double priority = null;
		if (annotation.priority() >= 0) {
			if (annotation.priority() > 1) {
				throw new IllegalArgumentException("priority " + annotation.priority() + " is not between 0 and 1");
			}
			priority = annotation.priority();
		}
		String lastModified = emptyToNull(annotation.lastModified());
		if (lastModified != null) {
			try {
				Instant.parse(lastModified);
			}
			catch (DateTimeParseException ex) {
				throw new IllegalArgumentException(
						"lastModified '" + lastModified + "' is not an ISO 8601 instant such as 2025-01-12T15:00:58Z");
			}
		}
		return new ResourceAnnotations(audience, priority, lastModified);
	}

	private static @Nullable String emptyToNull(String value) {
		return StringUtils.hasText(value) ? value : null;
	}

}
