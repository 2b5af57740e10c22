package dev.sonde.db;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A borrowed connection as Sonde's own read work sees it: every statement the work creates is
 * remembered, so the call's stop can cancel whichever of them is running. Everything else goes to
 * the connection as it is.
 */
final class StoppableConnection {
  private final Connection view;
  private final List<Statement> statements = new CopyOnWriteArrayList<>();

  StoppableConnection(Connection connection) {
    this.view =
        (Connection)
            Proxy.newProxyInstance(
                Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                  Object out;
                  try {
                    out = method.invoke(connection, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                  if (out instanceof Statement statement) {
                    statements.add(statement);
                  }
                  return out;
                });
  }

  /** The connection to hand to the work. */
  Connection view() {
    return view;
  }

  /** Cancels every statement the work created that is still open. */
  void cancelAll() {
    for (Statement statement : statements) {
      try {
        if (!statement.isClosed()) {
          statement.cancel();
        }
      } catch (SQLException | RuntimeException e) {
        // finished or closed meanwhile: nothing to stop
      }
    }
  }
}
