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
  private final int maxPerAccount;

  /**
   * At most {@code maxSessions} sessions, and of those at most {@code maxPerAccount} (0: no limit)
   * of one signed-in account, so no one account can take every session from the others.
   */
  public SessionStore(Principal local, String defaultLogLevel, int maxSessions, int maxPerAccount) {
    this.local = local;
    this.defaultLogLevel = defaultLogLevel;
    this.maxSessions = maxSessions;
    this.maxPerAccount = maxPerAccount;
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
    if (principal.binding() != null
        && maxPerAccount > 0
        && sessions.values().stream().filter(s -> s.account().equals(principal.account())).count()
            >= maxPerAccount) {
      throw new McpException(
          JsonRpc.SERVER_BUSY,
          "account "
              + principal.account()
              + " holds its limit of "
              + maxPerAccount
              + " sessions (auth.limits.maxSessions); end unused sessions (HTTP DELETE), or use"
              + " the stateless 2026-07-28 revision, which needs none");
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
