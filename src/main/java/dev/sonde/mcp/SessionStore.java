package dev.sonde.mcp;

import dev.sonde.auth.Principal;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** The open sessions of this node, by id, at most {@code maxSessions} of them. */
public final class SessionStore {
  /** The transport whose one session is the process's own input; it never idles out. */
  public static final String STDIO = "stdio";

  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final Principal local;
  private final String defaultLogLevel;
  private final int maxSessions;

  public SessionStore(Principal local, String defaultLogLevel, int maxSessions) {
    this.local = local;
    this.defaultLogLevel = defaultLogLevel;
    this.maxSessions = maxSessions;
  }

  /**
   * A new session, or a JSON-RPC error when the node already holds as many as it may. The count is
   * read without a lock, so sessions opened at the same instant on several event loops may pass the
   * cap by one each.
   */
  public Session create(String transport, Principal principal) {
    if (sessions.size() >= maxSessions) {
      throw new McpException(
          JsonRpc.SERVER_BUSY,
          "the server holds its limit of "
              + maxSessions
              + " sessions (mcp.maxSessions); end unused sessions (HTTP DELETE) or try again later");
    }
    Session session =
        new Session(UUID.randomUUID().toString(), transport, principal, defaultLogLevel);
    sessions.put(session.id(), session);
    return session;
  }

  /** Who a request without credentials acts as: the local account and its toolsets. */
  public Principal local() {
    return local;
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
   * Closes sessions of every network transport that sent nothing for longer than {@code idleMillis}
   * and have no call running; closing a WebSocket session closes its socket.
   */
  public int expire(long idleMillis) {
    long cutoff = System.currentTimeMillis() - idleMillis;
    int closed = 0;
    for (Session s : sessions.values()) {
      if (!STDIO.equals(s.transport())
          && s.lastActive() < cutoff
          && s.calls().isEmpty()
          && close(s.id())) {
        closed++;
      }
    }
    return closed;
  }
}
