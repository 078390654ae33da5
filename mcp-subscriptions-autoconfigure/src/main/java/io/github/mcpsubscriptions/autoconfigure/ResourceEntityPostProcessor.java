package io.github.mcpsubscriptions.autoconfigure;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.github.mcpsubscriptions.jpa.EntityChangePublisher;
import io.github.mcpsubscriptions.notification.PublishedChangeFilter;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;
import org.hibernate.engine.spi.SessionFactoryImplementor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.util.function.SingletonSupplier;

/**
 * Has each entity manager factory publish its mapped entities' changes as soon as it is
 * created, before any other bean can write through it, and checks the mappings then, so
 * that a wrong one stops the start-up.
 */
class ResourceEntityPostProcessor implements BeanPostProcessor {

	private final Supplier<ResourceChangeFeed> feed;

	/**
	 * The session factories already watched: one can also be a bean of its own, or be
	 * seen through a proxy, and each change must be published once.
	 */
	private final Set<SessionFactoryImplementor> watched = ConcurrentHashMap.newKeySet();

	ResourceEntityPostProcessor(ObjectProvider<ResourceChangeFeed> feed,
			ObjectProvider<PublishedChangeFilter> filters) {
		// Looked up at the first change: the feed may depend on beans that need the
		// factory.
		this.feed = SingletonSupplier.of(() -> McpEndpointAutoConfiguration.filtered(feed.getObject(), filters));
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof EntityManagerFactory factory) {
			SessionFactoryImplementor sessionFactory;
			try {
				sessionFactory = factory.unwrap(SessionFactoryImplementor.class);
			}
			catch (PersistenceException ex) {
				// Another JPA provider: its entities are not watched.
				return bean;
			}
			if (this.watched.add(sessionFactory)) {
				EntityChangePublisher.register(sessionFactory, this.feed);
			}
		}
		return bean;
	}

}
