package io.github.mcpsubscriptions.jpa;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.event.service.spi.EventListenerRegistry;
import org.hibernate.event.spi.EventType;
import org.hibernate.event.spi.PostCommitDeleteEventListener;
import org.hibernate.event.spi.PostCommitInsertEventListener;
import org.hibernate.event.spi.PostCommitUpdateEventListener;
import org.hibernate.event.spi.PostDeleteEvent;
import org.hibernate.event.spi.PostInsertEvent;
import org.hibernate.event.spi.PostUpdateEvent;
import org.hibernate.persister.entity.EntityPersister;
import org.jspecify.annotations.Nullable;

/**
 * Publishes the committed changes of {@link McpResourceEntity} entities to the change
 * feed. Hibernate calls it after a transaction commits, and not for one that rolled back
 * or failed to commit, so subscribers never hear of a change that did not happen.
 *
 * @since 0.1.0
 */
public final class EntityChangePublisher
		implements PostCommitInsertEventListener, PostCommitUpdateEventListener, PostCommitDeleteEventListener {

	/** The {@code change} attribute's name. */
	public static final String CHANGE = ResourceChange.CHANGE;

	private static final Log logger = LogFactory.getLog(EntityChangePublisher.class);

	private final Map<String, EntityResourceMapping> mappings;

	private final Supplier<ResourceChangeFeed> feed;

	/** Entities whose URI could not be built once, so that the log says so once each. */
	private final Set<String> unbuildable = ConcurrentHashMap.newKeySet();

	private EntityChangePublisher(Map<String, EntityResourceMapping> mappings, Supplier<ResourceChangeFeed> feed) {
		this.mappings = mappings;
		this.feed = feed;
	}

	/**
	 * Checks the mappings of a session factory's entities and, if any entity is mapped,
	 * has Hibernate call a publisher after each commit.
	 * @param sessionFactory the session factory (a JPA entity manager factory unwrapped)
	 * @param feed the change feed, looked up at the first change
	 * @return the publisher, or {@code null} if no entity is mapped
	 * @throws InvalidResourceEntityException if a mapping cannot be filled from its
	 * entity
	 */
	public static @Nullable EntityChangePublisher register(SessionFactoryImplementor sessionFactory,
			Supplier<ResourceChangeFeed> feed) {
		Map<String, EntityResourceMapping> mappings = new HashMap<>();
		List<String> problems = new ArrayList<>();
		sessionFactory.getMappingMetamodel().forEachEntityDescriptor((persister) -> {
			McpResourceEntity annotation = persister.getMappedClass().getAnnotation(McpResourceEntity.class);
			if (annotation != null) {
				EntityResourceMapping mapping = EntityResourceMapping.of(persister, annotation, problems);
				if (mapping != null) {
					mappings.put(persister.getEntityName(), mapping);
				}
			}
		});
		if (!problems.isEmpty()) {
			problems.sort(null);
			throw new InvalidResourceEntityException(problems);
		}
		if (mappings.isEmpty()) {
			return null;
		}
		EntityChangePublisher publisher = new EntityChangePublisher(Map.copyOf(mappings), feed);
		EventListenerRegistry registry = sessionFactory.getEventListenerRegistry();
		registry.appendListeners(EventType.POST_COMMIT_INSERT, publisher);
		registry.appendListeners(EventType.POST_COMMIT_UPDATE, publisher);
		registry.appendListeners(EventType.POST_COMMIT_DELETE, publisher);
		return publisher;
	}

	@Override
	public boolean requiresPostCommitHandling(EntityPersister persister) {
		return this.mappings.containsKey(persister.getEntityName());
	}

	@Override
	public void onPostInsert(PostInsertEvent event) {
		publish(event.getPersister(), uri(event.getPersister(), event.getId(), event.getState()),
				ResourceChange.CREATED);
	}

	@Override
	public void onPostUpdate(PostUpdateEvent event) {
		EntityPersister persister = event.getPersister();
		String uri = uri(persister, event.getId(), event.getState());
		String previous = (event.getOldState() != null) ? uri(persister, event.getId(), event.getOldState()) : uri;
		if (previous != null && !Objects.equals(previous, uri)) {
			// A property in the template changed: the resource moved to another URI.
			publish(persister, previous, ResourceChange.DELETED);
			publish(persister, uri, ResourceChange.CREATED);
		}
		else {
			publish(persister, uri, ResourceChange.UPDATED);
		}
	}

	@Override
	public void onPostDelete(PostDeleteEvent event) {
		Object[] state = event.getDeletedState();
		if (state == null) {
			state = event.getPersister().getValues(event.getEntity());
		}
		publish(event.getPersister(), uri(event.getPersister(), event.getId(), state), ResourceChange.DELETED);
	}

	@Override
	public void onPostInsertCommitFailed(PostInsertEvent event) {
		// Nothing was committed, so nothing changed.
	}

	@Override
	public void onPostUpdateCommitFailed(PostUpdateEvent event) {
		// Nothing was committed, so nothing changed.
	}

	@Override
	public void onPostDeleteCommitFailed(PostDeleteEvent event) {
		// Nothing was committed, so nothing changed.
	}

	private @Nullable String uri(EntityPersister persister, Object id, @Nullable Object[] state) {
		EntityResourceMapping mapping = this.mappings.get(persister.getEntityName());
		if (mapping == null) {
			return null;
		}
		String uri = mapping.uri(id, state);
		if (uri == null && this.unbuildable.add(persister.getEntityName())) {
			logger.warn("A committed change of " + persister.getEntityName() + " " + id
					+ " is not published: a variable of \"" + mapping.getTemplate()
					+ "\" outside its query has no value (logged once per entity)");
		}
		return uri;
	}

	private void publish(EntityPersister persister, @Nullable String uri, String change) {
		if (uri == null) {
			return;
		}
		try {
			this.feed.get().publish(new ResourceChange(uri, Map.of(CHANGE, change), Instant.now()));
		}
		catch (RuntimeException ex) {
			// The transaction has committed; failing here would only reach Hibernate's
			// log.
			logger.warn(
					"The committed change of " + uri + " (" + persister.getEntityName() + ") could not be published",
					ex);
		}
	}

}
