package io.github.mcpsubscriptions.autoconfigure;

import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.github.mcpsubscriptions.capture.CaptureConnections;
import io.github.mcpsubscriptions.capture.CaptureDatabase;
import io.github.mcpsubscriptions.capture.CaptureHealthIndicator;
import io.github.mcpsubscriptions.capture.CaptureMeterBinder;
import io.github.mcpsubscriptions.capture.CaptureSink;
import io.github.mcpsubscriptions.capture.CaptureStats;
import io.github.mcpsubscriptions.capture.CapturedChangeAttributes;
import io.github.mcpsubscriptions.capture.CapturedTable;
import io.github.mcpsubscriptions.capture.CapturedUriFilter;
import io.github.mcpsubscriptions.capture.ChangeCapture;
import io.github.mcpsubscriptions.capture.FeedCaptureSink;
import io.github.mcpsubscriptions.capture.InvalidCaptureException;
import io.github.mcpsubscriptions.capture.postgres.PostgresCaptureDatabase;
import io.github.mcpsubscriptions.cluster.RedisChangeLog;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.resource.UriTemplate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

/**
 * Auto-configuration for changes made by any writer: the committed row changes of the
 * tables named in {@code mcp.capture.tables} are read from the application's database
 * (PostgreSQL) and notify the subscribers of the mapped resources. Active with
 * {@code mcp.capture.enabled=true}, one {@link DataSource} and the MCP endpoint.
 *
 * @since 0.1.0
 */
@AutoConfiguration(
		after = { McpClusterAutoConfiguration.class, McpEndpointAutoConfiguration.class,
				McpJpaAutoConfiguration.class },
		afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnBooleanProperty(name = "mcp.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("mcp.capture.enabled")
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBean(NotificationEngine.class)
@EnableConfigurationProperties(McpCaptureProperties.class)
public final class McpCaptureAutoConfiguration {

	private static final String POSTGRES_DRIVER = "org.postgresql.PGConnection";

	@Bean
	@ConditionalOnMissingBean
	static CaptureStats mcpCaptureStats() {
		return new CaptureStats();
	}

	@Bean
	@ConditionalOnMissingBean
	static CapturedUriFilter mcpCapturedUriFilter(McpCaptureProperties properties, CaptureStats stats) {
		return new CapturedUriFilter(tables(properties), stats);
	}

	@Bean
	@ConditionalOnMissingBean
	static CaptureDatabase mcpCaptureDatabase(McpCaptureProperties properties, ResourceLoader resourceLoader) {
		if (!ClassUtils.isPresent(POSTGRES_DRIVER, resourceLoader.getClassLoader())) {
			throw new InvalidCaptureException(List.of("the PostgreSQL JDBC driver (org.postgresql:postgresql) is not "
					+ "on the class path, and the change capture works on PostgreSQL only"));
		}
		return new PostgresCaptureDatabase(properties.getTableName());
	}

	/**
	 * The single node's sink: not in a cluster, whose log is configured before this (see
	 * {@link ClusterCaptureConfiguration}).
	 */
	@Bean
	@ConditionalOnMissingBean(value = CaptureSink.class, type = "io.github.mcpsubscriptions.cluster.RedisChangeLog")
	static CaptureSink mcpCaptureSink(ResourceChangeFeed feed, NotificationEngine dispatcher) {
		return new FeedCaptureSink(feed, dispatcher);
	}

	@Bean
	@ConditionalOnMissingBean
	static CaptureConnections mcpCaptureConnections(CaptureDatabase database, DataSource dataSource)
			throws SQLException {
		return CaptureConnections.derivedFrom(dataSource,
				database.connectionProperties(ChangeCapture.APPLICATION_NAME));
	}

	/**
	 * The capture. It depends on the change feed so that the feed starts before it and
	 * stops after it: a cluster's log reader must read what the capture appends. It
	 * checks the captured tables when created, so after the application's database
	 * initializers (SQL scripts, Flyway, Liquibase) that create them.
	 */
	@Bean
	@ConditionalOnMissingBean
	@DependsOnDatabaseInitialization
	static ChangeCapture mcpChangeCapture(CaptureDatabase database, CaptureConnections connections,
			McpCaptureProperties properties, CaptureSink sink, CaptureStats stats, ResourceChangeFeed feed,
			ObjectProvider<CapturedChangeAttributes> attributes) {
		McpCaptureProperties capture = properties;
		ChangeCapture changeCapture = new ChangeCapture(database, connections, tables(properties), sink, stats,
				new ChangeCapture.Settings(capture.getBatchSize(), capture.getPollInterval(), capture.getRetention(),
						capture.getMaxBackOff(), capture.isInstallSchema(), capture.getHoldWarningThreshold()),
				Clock.systemUTC());
		attributes.ifAvailable(changeCapture::setAttributes);
		// At start-up: a table or column that does not exist stops the application now.
		changeCapture.prepare();
		return changeCapture;
	}

	/**
	 * The captured tables, their templates parsed: an invalid one stops the start-up.
	 */
	static List<CapturedTable> tables(McpCaptureProperties properties) {
		List<CapturedTable> tables = new ArrayList<>();
		List<String> problems = new ArrayList<>();
		for (Map.Entry<String, String> entry : properties.getTables().entrySet()) {
			try {
				tables.add(new CapturedTable(entry.getKey(), UriTemplate.parse(entry.getValue())));
			}
			catch (IllegalArgumentException ex) {
				problems.add("the URI template \"" + entry.getValue() + "\" of table " + entry.getKey()
						+ " is invalid: " + ex.getMessage());
			}
		}
		if (!problems.isEmpty()) {
			throw new InvalidCaptureException(problems);
		}
		return tables;
	}

	/**
	 * In a cluster, captured changes enter the shared change log, each once whichever
	 * node reads it. The single node's sink is conditional on the log's absence, so
	 * neither depends on the order the two are processed in.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.data.redis.connection.RedisConnectionFactory")
	@ConditionalOnBean(RedisChangeLog.class)
	static class ClusterCaptureConfiguration {

		@Bean
		@ConditionalOnMissingBean(CaptureSink.class)
		ClusterCaptureSink mcpCaptureSink(RedisChangeLog log, McpCaptureProperties properties, CaptureDatabase database,
				CaptureConnections connections) {
			return new ClusterCaptureSink(log, tables(properties), database, connections);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
	static class CaptureHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "mcpCaptureHealthIndicator")
		CaptureHealthIndicator mcpCaptureHealthIndicator(CaptureStats stats) {
			return new CaptureHealthIndicator(stats);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
	static class CaptureMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		CaptureMeterBinder mcpCaptureMeterBinder(CaptureStats stats) {
			return new CaptureMeterBinder(stats);
		}

	}

}
