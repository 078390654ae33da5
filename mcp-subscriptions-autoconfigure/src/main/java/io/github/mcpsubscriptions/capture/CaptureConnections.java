package io.github.mcpsubscriptions.capture;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;

/**
 * Opens the capture's own connections: long-lived, outside the application's pool, so
 * that the capture never takes a connection the application needs.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface CaptureConnections {

	/**
	 * Opens a new connection.
	 * @return the connection, in auto-commit
	 * @throws SQLException if it cannot
	 */
	Connection open() throws SQLException;

	/**
	 * Connections to the database of an application's data source, with its URL, user and
	 * password: read from the data source's bean properties ({@code jdbcUrl} or
	 * {@code url}, {@code username} or {@code user}, {@code password}, as Hikari,
	 * Spring's driver data sources and most pools have them), else from a connection's
	 * metadata (URL and user, no password).
	 * @param dataSource the application's data source
	 * @param properties driver properties to add (the application name)
	 * @return the connections
	 * @throws SQLException if the data source names no URL and a connection from it fails
	 */
	static CaptureConnections derivedFrom(DataSource dataSource, Properties properties) throws SQLException {
		BeanWrapper bean = PropertyAccessorFactory.forBeanPropertyAccess(dataSource);
		String url = read(bean, "jdbcUrl", "url");
		String user = read(bean, "username", "user");
		String password = read(bean, "password");
		if (url == null) {
			try (Connection connection = dataSource.getConnection()) {
				url = connection.getMetaData().getURL();
				user = connection.getMetaData().getUserName();
			}
		}
		Properties all = new Properties();
		if (user != null) {
			all.setProperty("user", user);
		}
		if (password != null) {
			all.setProperty("password", password);
		}
		all.putAll(properties);
		String at = url;
		return () -> DriverManager.getConnection(at, all);
	}

	private static @Nullable String read(BeanWrapper bean, String... names) {
		for (String name : names) {
			if (bean.isReadableProperty(name)) {
				try {
					Object value = bean.getPropertyValue(name);
					if (value != null) {
						return value.toString();
					}
				}
				catch (RuntimeException ex) {
					// A property that cannot be read, such as a write-only password.
				}
			}
		}
		return null;
	}

}
