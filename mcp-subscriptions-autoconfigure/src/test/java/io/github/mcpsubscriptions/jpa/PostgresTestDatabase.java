package io.github.mcpsubscriptions.jpa;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import io.github.mcpsubscriptions.test.TestPostgres;
import jakarta.persistence.EntityManagerFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.orm.jpa.persistenceunit.PersistenceManagedTypes;
import org.springframework.orm.jpa.vendor.HibernateJpaVendorAdapter;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A schema of its own in a real PostgreSQL for each test application, in the run's
 * {@link TestPostgres}: the one
 * {@code -Dmcp.test.postgres=jdbc:postgresql://host:port/database} names (user
 * {@code mcp.test.postgres.user}, {@code postgres} by default, no password), else a
 * Testcontainers container where Docker works, else a PostgreSQL of the run's own. The
 * schema is dropped when the application closes. There is no skip: without a database the
 * tests fail and say what they need.
 */
public final class PostgresTestDatabase implements AutoCloseable {

	static final String USER = TestPostgres.user();

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
			throw new IllegalStateException("JPA tests need a real PostgreSQL; none answers at " + at + " (user " + USER
					+ ", no password). " + TestPostgres.help() + " " + ex.getMessage(), ex);
		}
	}

	private static String url() {
		return TestPostgres.url();
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
