package io.github.mcpsubscriptions.resource;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.core.convert.ConversionException;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.convert.TypeDescriptor;

/**
 * The {@link McpResource} method behind a resource, and how a request's URI variables
 * become its arguments. Integrations use it to judge a read without making it: the
 * security integration evaluates the method's {@code @PreAuthorize} with the arguments a
 * read would get.
 *
 * @since 0.1.0
 */
public final class ResourceMethod {

	private final Object bean;

	private final Method method;

	private final @Nullable String[] variableNames;

	private final TypeDescriptor[] types;

	private final ConversionService conversionService;

	ResourceMethod(Object bean, Method method, @Nullable String[] variableNames, TypeDescriptor[] types,
			ConversionService conversionService) {
		this.bean = bean;
		this.method = method;
		this.variableNames = variableNames.clone();
		this.types = types.clone();
		this.conversionService = conversionService;
	}

	/**
	 * The bean the method belongs to.
	 * @return the bean
	 */
	public Object getBean() {
		return this.bean;
	}

	/**
	 * The method as declared (its annotations are the application's).
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * The arguments a read of the request passes to the method.
	 * @param request the URI and its variables
	 * @return the arguments, or {@code null} if a variable does not convert to its
	 * parameter's type (the resource does not exist)
	 */
	public @Nullable Object @Nullable [] arguments(ResourceRequest request) {
		Object[] args = new Object[this.types.length];
		for (int i = 0; i < args.length; i++) {
			String name = this.variableNames[i];
			if (name == null) {
				args[i] = request;
				continue;
			}
			String value = request.variables().get(name);
			try {
				args[i] = (value != null)
						? this.conversionService.convert(value, TypeDescriptor.valueOf(String.class), this.types[i])
						: null;
			}
			catch (ConversionException ex) {
				return null;
			}
		}
		return args;
	}

	/**
	 * The request's URI variables by name, converted to their parameters' types where a
	 * parameter binds them.
	 * @param request the request
	 * @param arguments its {@linkplain #arguments arguments}
	 * @return the variables
	 */
	public Map<String, Object> variables(ResourceRequest request, @Nullable Object[] arguments) {
		Map<String, Object> variables = new LinkedHashMap<>(request.variables());
		for (int i = 0; i < arguments.length; i++) {
			String name = this.variableNames[i];
			if (name != null && arguments[i] != null) {
				variables.put(name, arguments[i]);
			}
		}
		return variables;
	}

	@Override
	public String toString() {
		return this.method.toGenericString();
	}

}
