package io.github.mcpsubscriptions.prompt;

import java.io.InputStream;
import java.io.Reader;
import java.lang.reflect.Method;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

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
 * Finds {@link McpPrompt} methods on all beans once the singletons exist, validates them,
 * and registers them with the {@link PromptRegistry}. Every mistake is collected and
 * reported at once, and the application does not start.
 *
 * @since 0.1.0
 */
public class McpPromptMethodProcessor implements SmartInitializingSingleton, BeanFactoryAware {

	private static final Set<Class<?>> UNSUPPORTED_RETURN_TYPES = Set.of(void.class, Void.class, Future.class,
			CompletionStage.class, InputStream.class, Reader.class, Map.class);

	private static final Set<Class<?>> MESSAGE_TYPES = Set.of(String.class, CharSequence.class, PromptContent.class,
			PromptMessage.class);

	private static final String PUBLISHER = "org.reactivestreams.Publisher";

	private static final TypeDescriptor STRING = TypeDescriptor.valueOf(String.class);

	private final PromptRegistry registry;

	private final ConversionService conversionService;

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	public McpPromptMethodProcessor(PromptRegistry registry, ConversionService conversionService) {
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
		Map<String, Prompt> prompts = new LinkedHashMap<>();
		Map<String, String> declaredBy = new HashMap<>();
		for (String beanName : factory.getBeanNamesForType(Object.class, false, false)) {
			if (ScopedProxyUtils.isScopedTarget(beanName)) {
				continue;
			}
			Class<?> type = AutoProxyUtils.determineTargetClass(factory, beanName);
			if (type == null || !AnnotationUtils.isCandidateClass(type, McpPrompt.class)) {
				continue;
			}
			Map<Method, McpPrompt> methods = MethodIntrospector.selectMethods(type,
					(MethodIntrospector.MetadataLookup<McpPrompt>) (method) -> AnnotatedElementUtils
						.findMergedAnnotation(method, McpPrompt.class));
			if (methods.isEmpty()) {
				continue;
			}
			Object bean = factory.getBean(beanName);
			methods.forEach((method, annotation) -> {
				String where = describe(beanName, method);
				try {
					Prompt prompt = define(bean, method, annotation);
					String name = prompt.getDefinition().name();
					String previous = declaredBy.putIfAbsent(name, where);
					if (previous != null) {
						problems.add(where + ": duplicate prompt name '" + name + "', already declared by " + previous);
					}
					else {
						prompts.put(name, prompt);
					}
				}
				catch (IllegalArgumentException ex) {
					problems.add(where + ": " + ex.getMessage());
				}
			});
		}
		if (!problems.isEmpty()) {
			throw new InvalidMcpPromptException(problems);
		}
		prompts.forEach((name, prompt) -> {
			try {
				this.registry.register(prompt);
			}
			catch (IllegalStateException ex) {
				problems.add(declaredBy.get(name) + ": " + ex.getMessage());
			}
		});
		if (!problems.isEmpty()) {
			throw new InvalidMcpPromptException(problems);
		}
	}

	private static String describe(String beanName, Method method) {
		return "method " + ClassUtils.getQualifiedMethodName(method) + " (bean '" + beanName + "')";
	}

	private Prompt define(Object bean, Method method, McpPrompt annotation) {
		checkReturnType(method);
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		List<MethodPrompt.Parameter> parameters = new ArrayList<>();
		List<PromptArgument> arguments = new ArrayList<>();
		Map<String, List<String>> values = new HashMap<>();
		for (int i = 0; i < method.getParameterCount(); i++) {
			MethodParameter parameter = new MethodParameter(method, i);
			parameter.initParameterNameDiscovery(this.parameterNames);
			TypeDescriptor type = new TypeDescriptor(parameter);
			Class<?> parameterType = parameter.getParameterType();
			if (parameterType == PromptRequest.class) {
				parameters.add(MethodPrompt.Parameter.of(MethodPrompt.Kind.REQUEST, type));
				continue;
			}
			if (Principal.class.isAssignableFrom(parameterType)) {
				parameters.add(MethodPrompt.Parameter.of(MethodPrompt.Kind.PRINCIPAL, type));
				continue;
			}
			McpPromptArgument argument = parameter.getParameterAnnotation(McpPromptArgument.class);
			String name = (argument != null && StringUtils.hasText(argument.name())) ? argument.name()
					: parameter.getParameterName();
			if (name == null) {
				throw new IllegalArgumentException("cannot tell which argument parameter " + i
						+ " is; compile with -parameters or name it with @McpPromptArgument(name = ...)");
			}
			boolean required = argument == null || argument.required();
			if (!required && parameterType.isPrimitive()) {
				throw new IllegalArgumentException("the optional argument '" + name + "' cannot be a primitive "
						+ parameterType.getName() + "; use a wrapper type or make it required");
			}
			if (!this.conversionService.canConvert(STRING, type)) {
				throw new IllegalArgumentException("the argument '" + name + "' cannot be converted from a String to "
						+ type + "; arguments arrive as strings, take a type Spring's ConversionService converts to, a "
						+ "PromptRequest or a Principal");
			}
			arguments.add(new PromptArgument(name, (argument != null) ? emptyToNull(argument.title()) : null,
					(argument != null) ? emptyToNull(argument.description()) : null, required));
			if (argument != null && argument.values().length > 0) {
				values.put(name, List.of(argument.values()));
			}
			parameters.add(new MethodPrompt.Parameter(MethodPrompt.Kind.ARGUMENT, name, type));
		}
		String name = StringUtils.hasText(annotation.name()) ? annotation.name() : method.getName();
		PromptDefinition definition = new PromptDefinition(name, emptyToNull(annotation.title()),
				emptyToNull(annotation.description()), arguments);
		ReflectionUtils.makeAccessible(invocable);
		return new MethodPrompt(definition, bean, invocable, method, parameters, values, this.conversionService);
	}

	private static void checkReturnType(Method method) {
		Class<?> type = method.getReturnType();
		String supported = "; return a String, PromptContent, PromptMessage, a List of them or a PromptResult";
		for (Class<?> unsupported : UNSUPPORTED_RETURN_TYPES) {
			if (unsupported.isAssignableFrom(type)) {
				throw new IllegalArgumentException("unsupported return type " + type.getName() + supported);
			}
		}
		if (isPublisher(type)) {
			throw new IllegalArgumentException(
					"unsupported return type " + type.getName() + ": reactive types are not supported" + supported);
		}
		boolean message = MESSAGE_TYPES.stream().anyMatch((candidate) -> candidate.isAssignableFrom(type));
		boolean many = Iterable.class.isAssignableFrom(type)
				|| (type.isArray() && !type.getComponentType().isPrimitive());
		if (!message && !many && type != PromptResult.class && type != Object.class) {
			throw new IllegalArgumentException("unsupported return type " + type.getName() + supported);
		}
	}

	private static boolean isPublisher(Class<?> type) {
		return type.getName().equals(PUBLISHER) || Arrays.stream(ClassUtils.getAllInterfacesForClass(type))
			.anyMatch((candidate) -> candidate.getName().equals(PUBLISHER));
	}

	private static @Nullable String emptyToNull(String value) {
		return StringUtils.hasText(value) ? value : null;
	}

}
