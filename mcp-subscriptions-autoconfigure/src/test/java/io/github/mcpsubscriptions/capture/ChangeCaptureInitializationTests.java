package io.github.mcpsubscriptions.capture;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

import javax.sql.DataSource;

import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDatabaseInitializerDetector;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Lazy;

import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.assertNotified;
import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.listen;

/**
 * The capture checks its tables after the application's database initialization has
 * created them, as Spring Boot orders its SQL scripts, Flyway and Liquibase: a table that
 * only an initializer creates is captured, however late the initializer would otherwise
 * have run.
 */
class ChangeCaptureInitializationTests {

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void aTableCreatedByADatabaseInitializerIsCaptured() throws Exception {
		ConfigurableApplicationContext node = this.nodes.start(new Class<?>[] { LateSchema.class },
				"mcp.capture.tables.late_product=catalog://products/{id}");
		try (SseStream stream = listen(node, "catalog://products")) {
			this.nodes.sql("insert into late_product values (7)");
			assertNotified(stream, "catalog://products/7", "created");
		}
	}

	/**
	 * A database initializer that nothing else needs: lazy, it would never run before the
	 * capture were the capture not ordered after database initialization.
	 */
	@Configuration(proxyBeanMethods = false)
	@Import(DatabaseInitializationDependencyConfigurer.class)
	static class LateSchema {

		@Bean
		@Lazy
		LateSchemaInitializer lateSchemaInitializer(DataSource dataSource) {
			return new LateSchemaInitializer(dataSource);
		}

	}

	static final class LateSchemaInitializer implements InitializingBean {

		private final DataSource dataSource;

		LateSchemaInitializer(DataSource dataSource) {
			this.dataSource = dataSource;
		}

		@Override
		public void afterPropertiesSet() throws SQLException {
			try (Connection connection = this.dataSource.getConnection();
					Statement statement = connection.createStatement()) {
				statement.execute("create table late_product (id bigint primary key)");
			}
		}

	}

	/** Tells Spring Boot that {@link LateSchemaInitializer} initializes the database. */
	public static final class LateSchemaDetector extends AbstractBeansOfTypeDatabaseInitializerDetector {

		@Override
		protected Set<Class<?>> getDatabaseInitializerBeanTypes() {
			return Set.of(LateSchemaInitializer.class);
		}

	}

}
