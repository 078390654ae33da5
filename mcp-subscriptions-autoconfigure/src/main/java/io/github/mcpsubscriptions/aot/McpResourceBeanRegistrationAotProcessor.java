package io.github.mcpsubscriptions.aot;

import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Set;

import io.github.mcpsubscriptions.prompt.McpPrompt;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.McpResourceInstances;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * Registers reflection hints for the {@link McpResource}, {@link McpResourceInstances}
 * and {@link McpPrompt} methods of application beans: the starter finds and invokes them
 * reflectively at startup, and writes what they return as JSON, which a native image can
 * only do for methods and types it was told about.
 *
 * @since 0.1.0
 */
public class McpResourceBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

	private final BindingReflectionHintsRegistrar bindingRegistrar = new BindingReflectionHintsRegistrar();

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Class<?> type = ClassUtils.getUserClass(registeredBean.getBeanClass());
		if (!AnnotationUtils.isCandidateClass(type, McpResource.class)
				&& !AnnotationUtils.isCandidateClass(type, McpResourceInstances.class)
				&& !AnnotationUtils.isCandidateClass(type, McpPrompt.class)) {
			return null;
		}
		Set<Method> methods = new LinkedHashSet<>();
		methods.addAll(
				MethodIntrospector
					.selectMethods(type,
							(MethodIntrospector.MetadataLookup<McpResource>) (method) -> AnnotatedElementUtils
								.findMergedAnnotation(method, McpResource.class))
					.keySet());
		methods.addAll(
				MethodIntrospector
					.selectMethods(type,
							(MethodIntrospector.MetadataLookup<McpResourceInstances>) (method) -> AnnotatedElementUtils
								.findMergedAnnotation(method, McpResourceInstances.class))
					.keySet());
		methods.addAll(
				MethodIntrospector
					.selectMethods(type,
							(MethodIntrospector.MetadataLookup<McpPrompt>) (method) -> AnnotatedElementUtils
								.findMergedAnnotation(method, McpPrompt.class))
					.keySet());
		if (methods.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> {
			ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
			for (Method method : methods) {
				reflection.registerMethod(method, ExecutableMode.INVOKE);
				// The return value is written with Jackson: its properties are read
				// reflectively.
				this.bindingRegistrar.registerReflectionHints(reflection, method.getGenericReturnType());
			}
		};
	}

}
