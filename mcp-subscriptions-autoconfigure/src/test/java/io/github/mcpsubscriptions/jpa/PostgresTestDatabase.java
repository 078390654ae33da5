package io.github.mcpsubscriptions.jpa;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import io.github.mcpsubscriptions.test.DockerEnvironment;
import jakarta.persistence.EntityManagerFactory;
import org.jspecify.annotations.Nullable;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.orm.jpa.persistenceunit.PersistenceManagedTypes;
import org.springframework.orm.jpa.vendor.HibernateJpaVendorAdapter;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A schema of its own in a real PostgreSQL for each test application. Which PostgreSQL a
 * probe decides once: the one {@code -Dmcp.test.postgres=jdbc:postgresql://host:port/database}
 * names (user {@code mcp.test.postgres.user}, {@code postgres} by default, no password), else
 * a Testcontainers container where Docker works, else the machine's at 127.0.0.1:5432
 * (database {@code test}, user postgres, trust authentication). The schema is dropped when
 * the application closes. There is no skip: without a database the tests fail and say what
 * they need.
 */
public final class PostgresTestDatabase implements AutoCloseable {

	private static final String LOCAL_URL = "jdbc:postgresql://127.0.0.1:5432/test";

	static final String USER = System.getProperty("mcp.test.postgres.user", "postgres");

	private static @Nullable String url;

	private final String schema = "mcp_jpa_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	public PostgresTestDatabase() {
		execute("create schema " + this.schema);
	}

	public String schema() {
		return this.schema;
	}

	public DataSource dataSource() {
		DriverManagerDataSource dataSource = new DriverManagerDataSource(url() + "?currentSchema=" + this.schema, USER,
				"");
		dataSource.setDriverClassName("org.postgresql.Driver");
		return dataSource;
	}

	/**
	 * Runs one statement in the schema, outside JPA.
	 * @param sql the statement
	 */
	public void execute(String sql) {
		String at = url();
		try (Connection connection = DriverManager.getConnection(at, USER, "");
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("JPA tests need a real PostgreSQL; none answers at " + at + " (user "
					+ USER + ", no password). Run one there, or name one with "
					+ "-Dmcp.test.postgres=jdbc:postgresql://host:port/database, or run Docker. " + ex.getMessage(), ex);
		}
	}

	private static synchronized String url() {
		if (url == null) {
			url = probe();
		}
		return url;
	}

	@SuppressWarnings("resource")
	private static String probe() {
		String given = System.getProperty("mcp.test.postgres");
		if (given != null && !given.isBlank()) {
			return given;
		}
		if (DockerEnvironment.isAvailable()) {
			GenericContainer<?> container = new GenericContainer<>("postgres:15-alpine").withExposedPorts(5432)
				.withEnv("POSTGRES_HOST_AUTH_METHOD", "trust")
				.withEnv("POSTGRES_DB", "test")
				.waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*\\n", 2));
			container.start();
			return "jdbc:postgresql://" + container.getHost() + ":" + container.getMappedPort(5432) + "/test";
		}
		return LOCAL_URL;
	}

	@Override
	public void close() {
		execute("drop schema if exists " + this.schema + " cascade");
	}

	/**
	 * JPA with Hibernate as an application configures it itself: a data source, an entity
	 * manager factory for the entities named, and a transaction manager.
	 */
	@Configuration(proxyBeanMethods = false)
	public abstract static class JpaConfiguration {

		/**
		 * The entities of this application.
		 * @return their classes
		 */
		protected abstract List<Class<?>> entities();

		@Bean(destroyMethod = "close")
		PostgresTestDatabase postgresTestDatabase() {
			return new PostgresTestDatabase();
		}

		@Bean
		DataSource dataSource(PostgresTestDatabase database) {
			return database.dataSource();
		}

		@Bean
		LocalContainerEntityManagerFactoryBean entityManagerFactory(DataSource dataSource) {
			LocalContainerEntityManagerFactoryBean factory = new LocalContainerEntityManagerFactoryBean();
			factory.setDataSource(dataSource);
			factory.setJpaVendorAdapter(new HibernateJpaVendorAdapter());
			factory.setManagedTypes(
					PersistenceManagedTypes.of(entities().stream().map(Class::getName).toList(), List.of()));
			factory.setJpaPropertyMap(Map.of("hibernate.hbm2ddl.auto", "create"));
			return factory;
		}

		@Bean
		JpaTransactionManager transactionManager(EntityManagerFactory entityManagerFactory) {
			return new JpaTransactionManager(entityManagerFactory);
		}

		@Bean
		TransactionTemplate transactionTemplate(JpaTransactionManager transactionManager) {
			return new TransactionTemplate(transactionManager);
		}

	}

}
