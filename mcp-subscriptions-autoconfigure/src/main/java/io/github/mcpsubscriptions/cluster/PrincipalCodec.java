package io.github.mcpsubscriptions.cluster;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
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
 * Carries a request's authentication in a log record to the node that holds the session's
 * stream, where it judges the session's deliveries from then on, as the latest request's
 * does on one node. A {@link Serializable} principal (every Spring Security
 * {@code Authentication} is) travels whole, Java-serialized as Spring Session stores a
 * security context; any other principal travels as its name only, which grants no more
 * than the name does. A node reads back only the types an authentication consists of,
 * within bounds of size and depth; anything else is rejected (counted, logged once) and
 * the record's name judges instead. Whoever can write the log can still forge an
 * authentication of those types: Redis must be trusted (its ACL and TLS).
 */
final class PrincipalCodec {

	private static final Log logger = LogFactory.getLog(PrincipalCodec.class);

	private static final String NAME = "pn";

	private static final String AUTHENTICATION = "pa";

	/**
	 * What a record can make a node build: the types Spring Security's authentications
	 * consist of (its token, principal, authority and details types, a JWT's or an
	 * introspection's claims: strings, numbers, booleans, instants, lists, sets and
	 * maps), and nothing else; named as strings, so that the core needs no Spring
	 * Security. The depth bound also keeps sets and maps that hold each other from
	 * costing a hash of each level twice as often as the one below: a 2 KB record of 30
	 * nested sets took minutes, and is now rejected at its 17th level before anything is
	 * hashed; the deepest record let through (15 levels) costs a tenth of a second. An
	 * authentication is shallow (a JWT whose claims nest objects three deep stays within
	 * it).
	 */
	private static final ObjectInputFilter FILTER = ObjectInputFilter.Config
		.createFilter(String.join(";", "maxbytes=65536", "maxdepth=16", "maxrefs=4096", "maxarray=4096",
				// Claims, attributes and the parts of tokens.
				"java.lang.String", "java.lang.String$CaseInsensitiveComparator", "java.lang.Boolean",
				"java.lang.Character", "java.lang.Number", "java.lang.Byte", "java.lang.Short", "java.lang.Integer",
				"java.lang.Long", "java.lang.Float", "java.lang.Double", "java.lang.Enum", "java.lang.Object",
				"java.math.BigInteger", "java.math.BigDecimal", "java.time.Instant", "java.time.Ser", "java.util.Date",
				"java.util.ArrayList", "java.util.LinkedList", "java.util.Arrays$ArrayList", "java.util.HashMap",
				"java.util.LinkedHashMap", "java.util.TreeMap", "java.util.HashSet", "java.util.LinkedHashSet",
				"java.util.TreeSet", "java.util.Collections$*", "java.util.CollSer", "java.util.ImmutableCollections$*",
				"java.util.Map$Entry", "java.util.KeyValueHolder",
				// Spring Security's authentications and what they hold.
				"org.springframework.security.core.**", "org.springframework.security.authentication.**",
				"org.springframework.security.oauth2.core.**", "org.springframework.security.oauth2.jwt.Jwt",
				"org.springframework.security.oauth2.server.resource.**",
				"org.springframework.security.web.authentication.WebAuthenticationDetails", "!*"));

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
	 * @param stats counts the authentications rejected
	 * @return the principal, or {@code null} for an anonymous request
	 */
	static @Nullable Principal principal(Map<Object, Object> fields, ClusterStats stats) {
		Object name = fields.get(NAME);
		if (name == null) {
			return null;
		}
		Object serialized = fields.get(AUTHENTICATION);
		if (serialized != null) {
			try (ConfigurableObjectInputStream in = new ConfigurableObjectInputStream(
					new ByteArrayInputStream(Base64.getDecoder().decode(serialized.toString())),
					PrincipalCodec.class.getClassLoader())) {
				in.setObjectInputFilter(PrincipalCodec::check);
				Object read = in.readObject();
				if (read instanceof Principal principal) {
					return principal;
				}
				rejected(stats, new InvalidObjectException("Not a principal: " + read.getClass().getName()));
			}
			catch (IOException | ClassNotFoundException | RuntimeException ex) {
				// Another node's classes (a rolling upgrade), a type no authentication
				// consists of, or a forged record: the name grants no more than it.
				rejected(stats, ex);
			}
		}
		return new NamedPrincipal(name.toString());
	}

	/**
	 * The filter's verdict, saying which class or bound it rejected: the log then says
	 * what a node of the cluster sent that no authentication consists of.
	 */
	private static ObjectInputFilter.Status check(ObjectInputFilter.FilterInfo info) {
		ObjectInputFilter.Status status = FILTER.checkInput(info);
		if (status == ObjectInputFilter.Status.REJECTED) {
			Class<?> type = info.serialClass();
			throw new IllegalArgumentException((type != null) ? "class " + type.getName() + " is not allowed"
					: "past a bound (depth " + info.depth() + ", references " + info.references() + ", bytes "
							+ info.streamBytes() + ", array " + info.arrayLength() + ")");
		}
		return status;
	}

	private static void rejected(ClusterStats stats, Exception ex) {
		if (stats.principalRejected() == 1) {
			Throwable reason = (ex.getCause() != null) ? ex.getCause() : ex;
			logger.warn("An authentication read from the MCP cluster's change log was rejected (" + reason.getMessage()
					+ "); the record's principal name judges its deliveries. Counted in mcp.cluster.principals.rejected, "
					+ "logged once (then at DEBUG)");
		}
		else {
			logger.debug("An authentication read from the MCP cluster's change log was rejected", ex);
		}
	}

	/**
	 * A principal known by its name only.
	 *
	 * @param name the name
	 */
	record NamedPrincipal(String name) implements Principal {

		@Override
		public String getName() {
			return this.name;
		}

	}

}
