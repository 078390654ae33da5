package io.github.mcpsubscriptions.cluster;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.security.Principal;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ConfigurableObjectInputStream;

/**
 * Carries a request's authentication in a log record to the node that holds the
 * session's stream, where it judges the session's deliveries from then on, as the latest
 * request's does on one node. A {@link Serializable} principal (every Spring Security
 * {@code Authentication} is) travels whole, Java-serialized as Spring Session stores a
 * security context; any other principal travels as its name only, which grants no more
 * than the name does.
 */
final class PrincipalCodec {

	private static final Log logger = LogFactory.getLog(PrincipalCodec.class);

	private static final String NAME = "pn";

	private static final String AUTHENTICATION = "pa";

	/** Bounds what a record can make a node build: an authentication is small and shallow. */
	private static final ObjectInputFilter LIMITS = ObjectInputFilter.Config
		.createFilter("maxbytes=65536;maxdepth=32;maxrefs=4096;maxarray=4096");

	private PrincipalCodec() {
	}

	/**
	 * The record fields that carry a principal.
	 * @param principal the principal, or {@code null} for an anonymous request
	 * @return the fields, none for an anonymous request
	 */
	static Map<String, String> fields(@Nullable Principal principal) {
		Map<String, String> fields = new LinkedHashMap<>();
		if (principal == null) {
			return fields;
		}
		fields.put(NAME, principal.getName());
		if (principal instanceof Serializable) {
			ByteArrayOutputStream bytes = new ByteArrayOutputStream();
			try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
				out.writeObject(principal);
			}
			catch (IOException ex) {
				logger.debug("A principal could not be serialized; only its name reaches other nodes", ex);
				return fields;
			}
			fields.put(AUTHENTICATION, Base64.getEncoder().encodeToString(bytes.toByteArray()));
		}
		return fields;
	}

	/**
	 * The principal a record carries.
	 * @param fields the record's fields
	 * @return the principal, or {@code null} for an anonymous request
	 */
	static @Nullable Principal principal(Map<Object, Object> fields) {
		Object name = fields.get(NAME);
		if (name == null) {
			return null;
		}
		Object serialized = fields.get(AUTHENTICATION);
		if (serialized != null) {
			try (ConfigurableObjectInputStream in = new ConfigurableObjectInputStream(
					new ByteArrayInputStream(Base64.getDecoder().decode(serialized.toString())),
					PrincipalCodec.class.getClassLoader())) {
				in.setObjectInputFilter(LIMITS);
				if (in.readObject() instanceof Principal principal) {
					return principal;
				}
			}
			catch (IOException | ClassNotFoundException | RuntimeException ex) {
				// Another node's classes (a rolling upgrade): the name grants no more than it.
				logger.debug("A principal from the change log could not be read; its name judges", ex);
			}
		}
		return new NamedPrincipal(name.toString());
	}

	/**
	 * A principal known by its name only.
	 * @param name the name
	 */
	record NamedPrincipal(String name) implements Principal {

		@Override
		public String getName() {
			return this.name;
		}

	}

}
