package io.github.mcpsubscriptions.session;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.jspecify.annotations.Nullable;

/**
 * A {@link SessionStore} for a single node.
 *
 * @since 0.1.0
 */
public class InMemorySessionStore implements SessionStore {

	private final ConcurrentMap<String, McpSession> sessions = new ConcurrentHashMap<>();

	@Override
	public void save(McpSession session) {
		this.sessions.put(session.getId(), session);
	}

	@Override
	public boolean replace(McpSession session) {
		return this.sessions.replace(session.getId(), session) != null;
	}

	@Override
	public @Nullable McpSession find(String id) {
		return this.sessions.get(id);
	}

	@Override
	public @Nullable McpSession remove(String id) {
		return this.sessions.remove(id);
	}

	@Override
	public Collection<McpSession> findAll() {
		return List.copyOf(this.sessions.values());
	}

	@Override
	public int count() {
		return this.sessions.size();
	}

	@Override
	public int countByPrincipal(String principalName) {
		int count = 0;
		for (McpSession session : this.sessions.values()) {
			if (principalName.equals(session.getPrincipalName())) {
				count++;
			}
		}
		return count;
	}

}
