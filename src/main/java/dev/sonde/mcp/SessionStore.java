package dev.sonde.mcp;

import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** The open sessions of this node, by id. */
public final class SessionStore {
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final String defaultAccount;
  private final String defaultLogLevel;

  public SessionStore(String defaultAccount, String defaultLogLevel) {
    this.defaultAccount = defaultAccount;
    this.defaultLogLevel = defaultLogLevel;
  }

  public Session create(String transport) {
    Session session =
        new Session(UUID.randomUUID().toString(), transport, defaultAccount, defaultLogLevel);
    sessions.put(session.id(), session);
    return session;
  }

  public Session get(String id) {
    Session session = id == null ? null : sessions.get(id);
    if (session != null) {
      session.touch();
    }
    return session;
  }

  public Collection<Session> all() {
    return sessions.values();
  }

  /** Ends a session: its calls are cancelled by the close actions the server registered. */
  public boolean close(String id) {
    Session session = sessions.remove(id);
    if (session == null) {
      return false;
    }
    session.close();
    return true;
  }

  /**
   * Closes HTTP sessions idle for longer than {@code idleMillis} (a socket or stdio session ends
   * with its connection).
   */
  public int expire(long idleMillis) {
    long cutoff = System.currentTimeMillis() - idleMillis;
    int closed = 0;
    for (Session s : sessions.values()) {
      if ("http".equals(s.transport())
          && s.lastActive() < cutoff
          && s.calls().isEmpty()
          && close(s.id())) {
        closed++;
      }
    }
    return closed;
  }
}
