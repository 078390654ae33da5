package io.github.mcpsubscriptions.notification;

import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.mcpsubscriptions.resource.ResolvedResource;
import io.github.mcpsubscriptions.resource.ResourceContentMapper;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceInstance;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.subscription.CoverageKind;
import io.github.mcpsubscriptions.subscription.CoverageRules;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The concrete resources a resync names for a subscription: clients re-read every
 * notified {@code uri} (the SDK clients do so on their own), so a resync names only URIs
 * the subscriber may read, never a template or a glob. For a subscription, in this order:
 * <ol>
 * <li>the subscribed URI itself, if it is plain (not a template or pattern), something
 * serves it and the subscriber may read it, or a template listed to the subscriber makes
 * it (readable or not: a URI the rule hides is named as one that does not exist is, so
 * that a resync cannot tell them apart);</li>
 * <li>else the nearest registered static resource at or above what the subscription
 * covers (its base, then each parent path), which the subscriber may read: the collection
 * {@code catalog://products} for {@code catalog://products/{id}}, the directory
 * {@code file:///logs/} for {@code file:///logs/?pattern=*.log};</li>
 * <li>else the registered static resources and the listed template instances the
 * subscription covers and the subscriber may read, at most {@link #MAX_INSTANCES};</li>
 * <li>else none: nothing the subscriber may read stands for the subscription.</li>
 * </ol>
 *
 * @since 0.1.0
 */
final class ResyncTargets {

	/** The most instances a resync names for one subscription. */
	public static final int MAX_INSTANCES = 100;

	private static final Log logger = LogFactory.getLog(ResyncTargets.class);

	private final ResourceRegistry registry;

	private final ResourceAccessPolicy accessPolicy;

	/**
	 * Create the targets.
	 * @param registry the resources
	 * @param accessPolicy decides what the subscriber may read
	 */
	ResyncTargets(ResourceRegistry registry, ResourceAccessPolicy accessPolicy) {
		this.registry = registry;
		this.accessPolicy = accessPolicy;
	}

	/**
	 * The concrete URIs a resync of a subscription names.
	 * @param subscribedUri the subscription
	 * @param principal the subscriber's principal, or {@code null}
	 * @return the URIs, in order; empty when nothing the subscriber may read stands for
	 * the subscription
	 */
	List<String> of(String subscribedUri, @Nullable Principal principal) {
		CoverageKind kind;
		String base;
		try {
			kind = CoverageRules.kindOf(subscribedUri);
			base = CoverageRules.base(subscribedUri);
		}
		catch (IllegalArgumentException ex) {
			// A subscription a custom matcher took: only its own text can stand for it.
			return plainAndReadable(subscribedUri, principal) ? List.of(subscribedUri) : List.of();
		}
		boolean plain = kind == CoverageKind.EXACT || kind == CoverageKind.PREFIX;
		if (plain && plainAndReadable(subscribedUri, principal)) {
			return List.of(subscribedUri);
		}
		String collection = nearestCollection(base, principal);
		if (collection != null) {
			return List.of(collection);
		}
		return coveredInstances(subscribedUri, base, principal);
	}

	private boolean plainAndReadable(String uri, @Nullable Principal principal) {
		if (CoverageRules.kindOf(uri) == CoverageKind.TEMPLATE) {
			return false;
		}
		ResolvedResource resolved = this.registry.resolve(uri);
		if (resolved == null) {
			return false;
		}
		// A URI a template makes names itself wherever the template is listed to the
		// subscriber, as one that does not exist does: naming anything else for a URI the
		// rule hides would tell the two apart (reading either back is "not found").
		return resolved.definition().isTemplate()
				? this.accessPolicy.canListTemplate(principal, resolved.definition().getUri())
				: this.accessPolicy.canRead(principal, uri);
	}

	/**
	 * The nearest static resource at or above a base that the subscriber may read: the
	 * base, the base without its trailing {@code /}, then each parent path, never above
	 * the URI's authority.
	 */
	private @Nullable String nearestCollection(String base, @Nullable Principal principal) {
		int floor = authorityStart(base);
		String current = base;
		while (current.length() > floor) {
			if (isReadableResource(current, principal)) {
				return current;
			}
			if (current.endsWith("/")) {
				current = current.substring(0, current.length() - 1);
				continue;
			}
			int slash = current.lastIndexOf('/');
			if (slash < floor) {
				return null;
			}
			current = current.substring(0, slash + 1);
		}
		return null;
	}

	private boolean isReadableResource(String uri, @Nullable Principal principal) {
		ResourceDefinition definition = this.registry.get(uri);
		return definition != null && !definition.isTemplate() && this.accessPolicy.canRead(principal, uri);
	}

	/**
	 * Where a URI's authority begins (after {@code scheme://}), or its path (after
	 * {@code scheme:}).
	 */
	private static int authorityStart(String uri) {
		int separator = uri.indexOf("://");
		if (separator >= 0) {
			return separator + 3;
		}
		return uri.indexOf(':') + 1;
	}

	private List<String> coveredInstances(String subscribedUri, String base, @Nullable Principal principal) {
		Set<String> uris = new LinkedHashSet<>();
		for (ResourceDefinition resource : this.registry.getResources()) {
			if (uris.size() >= MAX_INSTANCES) {
				return new ArrayList<>(uris);
			}
			addIfCovered(uris, subscribedUri, resource.getUri(), principal);
		}
		for (ResourceDefinition template : this.registry.getTemplates()) {
			String prefix = template.getTemplate().getLiteralPrefix();
			// Only templates whose URIs can lie below the base are listed.
			if (!prefix.startsWith(base) && !base.startsWith(prefix)) {
				continue;
			}
			List<ResourceInstance> instances;
			try {
				instances = ResourceContentMapper.listInstances(template);
			}
			catch (Exception ex) {
				logger.warn("Listing the instances of " + template + " for a resync failed", ex);
				continue;
			}
			for (ResourceInstance instance : instances) {
				if (uris.size() >= MAX_INSTANCES) {
					return new ArrayList<>(uris);
				}
				String uri;
				try {
					uri = template.getTemplate().expand(instance.variables());
				}
				catch (IllegalArgumentException ex) {
					continue;
				}
				addIfCovered(uris, subscribedUri, uri, principal);
			}
		}
		return new ArrayList<>(uris);
	}

	private void addIfCovered(Set<String> uris, String subscribedUri, String uri, @Nullable Principal principal) {
		if (CoverageRules.covers(subscribedUri, uri) && this.accessPolicy.canRead(principal, uri)) {
			uris.add(uri);
		}
	}

}
