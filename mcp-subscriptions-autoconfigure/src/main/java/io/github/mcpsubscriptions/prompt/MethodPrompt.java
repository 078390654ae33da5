package io.github.mcpsubscriptions.prompt;

import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.core.convert.ConversionException;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.convert.TypeDescriptor;

/**
 * An {@link McpPrompt} method as a {@link Prompt}: arguments converted to the parameters,
 * what the method returns turned into messages.
 */
final class MethodPrompt implements Prompt {

	private static final TypeDescriptor STRING = TypeDescriptor.valueOf(String.class);

	private final PromptDefinition definition;

	private final Object bean;

	private final Method invocable;

	private final Method declared;

	private final List<Parameter> parameters;

	private final Map<String, List<String>> values;

	private final ConversionService conversionService;

	MethodPrompt(PromptDefinition definition, Object bean, Method invocable, Method declared,
			List<Parameter> parameters, Map<String, List<String>> values, ConversionService conversionService) {
		this.definition = definition;
		this.bean = bean;
		this.invocable = invocable;
		this.declared = declared;
		this.parameters = List.copyOf(parameters);
		this.values = Map.copyOf(values);
		this.conversionService = conversionService;
	}

	@Override
	public PromptDefinition getDefinition() {
		return this.definition;
	}

	@Override
	public PromptResult get(PromptRequest request) throws Exception {
		Object[] args = new Object[this.parameters.size()];
		for (int i = 0; i < args.length; i++) {
			Parameter parameter = this.parameters.get(i);
			args[i] = switch (parameter.kind()) {
				case REQUEST -> request;
				case PRINCIPAL -> request.principal();
				case ARGUMENT -> convert(parameter, request.argument(parameter.name()));
			};
		}
		Object result;
		try {
			result = this.invocable.invoke(this.bean, args);
		}
		catch (InvocationTargetException ex) {
			Throwable cause = ex.getTargetException();
			if (cause instanceof Exception exception) {
				throw exception;
			}
			throw (Error) cause;
		}
		return toResult(result);
	}

	private @Nullable Object convert(Parameter parameter, @Nullable String value) {
		try {
			return this.conversionService.convert(value, STRING, parameter.type());
		}
		catch (ConversionException ex) {
			throw new IllegalArgumentException("argument '" + parameter.name() + "' is not a valid "
					+ parameter.type().getType().getSimpleName() + ": '" + value + "'");
		}
	}

	private PromptResult toResult(@Nullable Object result) {
		if (result instanceof PromptResult prompt) {
			return prompt;
		}
		if (result instanceof Iterable<?> iterable) {
			List<PromptMessage> messages = new ArrayList<>();
			iterable.forEach((element) -> messages.add(toMessage(element)));
			return new PromptResult(null, messages);
		}
		if (result != null && result.getClass().isArray()) {
			List<PromptMessage> messages = new ArrayList<>();
			for (int i = 0; i < Array.getLength(result); i++) {
				messages.add(toMessage(Array.get(result, i)));
			}
			return new PromptResult(null, messages);
		}
		return PromptResult.of(toMessage(result));
	}

	private PromptMessage toMessage(@Nullable Object value) {
		if (value instanceof PromptMessage message) {
			return message;
		}
		if (value instanceof PromptContent content) {
			return PromptMessage.user(content);
		}
		if (value instanceof CharSequence text) {
			return PromptMessage.user(text.toString());
		}
		throw new IllegalStateException("The @McpPrompt method " + this.declared + " returned "
				+ ((value != null) ? "a " + value.getClass().getName() : "null")
				+ "; it must return a String, PromptContent, PromptMessage, a List of them or a PromptResult");
	}

	@Override
	public List<String> complete(String argument, String prefix, Map<String, String> context) {
		return this.values.getOrDefault(argument, List.of())
			.stream()
			.filter((value) -> value.regionMatches(true, 0, prefix, 0, prefix.length()))
			.toList();
	}

	@Override
	public Method getMethod() {
		return this.declared;
	}

	@Override
	public Object getTarget() {
		return this.bean;
	}

	@Override
	public String toString() {
		return "prompt '" + this.definition.name() + "' (" + this.declared + ")";
	}

	/** What a parameter of the method receives. */
	enum Kind {

		ARGUMENT, REQUEST, PRINCIPAL

	}

	record Parameter(Kind kind, String name, TypeDescriptor type) {

		static Parameter of(Kind kind, TypeDescriptor type) {
			return new Parameter(kind, "", type);
		}

	}

}
