package dev.sonde.db;

import dev.sonde.core.CallerException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

/**
 * The last wall before a driver: every text a wrapped connection is handed (prepared, called or run
 * through a plain statement) is first checked to be one statement as the driver itself will read
 * it, whatever the guard decided. An engine whose driver runs every statement of a text (the
 * PostgreSQL and H2 drivers do) says how to count; a text that is not exactly one statement is
 * refused with a {@link CallerException} before the driver sees it.
 */
abstract class StatementWall {
  private static final Set<String> PREPARING = Set.of("prepareStatement", "prepareCall");
  private static final Set<String> RUNNING =
      Set.of(
          "execute", "executeQuery", "executeUpdate", "executeLargeUpdate", "addBatch", "prepare");

  /**
   * Refuses {@code sql} unless the driver of {@code connection} would run it as one statement;
   * {@code prepared} tells whether it is prepared (with parameters) or run as plain text.
   */
  abstract void before(Connection connection, String sql, boolean prepared) throws SQLException;

  /** For a driver whose prepared statement tells how many statements it holds; none by default. */
  void after(PreparedStatement statement, String sql) throws SQLException {}

  /** {@code connection}, every text it is handed checked first. */
  final Connection wrap(Connection connection) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          String name = method.getName();
          boolean text = args != null && args.length > 0 && args[0] instanceof String;
          if (text && PREPARING.contains(name)) {
            before(connection, (String) args[0], true);
            Object statement = invoke(connection, method, args);
            if (statement instanceof PreparedStatement prepared) {
              try {
                after(prepared, (String) args[0]);
              } catch (SQLException | RuntimeException e) {
                prepared.close();
                throw e;
              }
            }
            return statement;
          }
          Object result = invoke(connection, method, args);
          if ("createStatement".equals(name) && result instanceof Statement statement) {
            return plain(connection, statement);
          }
          return result;
        };
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
  }

  private Statement plain(Connection connection, Statement statement) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          if (args != null
              && args.length > 0
              && args[0] instanceof String sql
              && RUNNING.contains(method.getName())) {
            before(connection, sql, false);
          }
          return invoke(statement, method, args);
        };
    return (Statement)
        Proxy.newProxyInstance(
            Statement.class.getClassLoader(), new Class<?>[] {Statement.class}, handler);
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** The refusal for a text the driver reads as {@code count} statements. */
  static CallerException refused(String driver, int count) {
    return new CallerException(
        "refused: "
            + driver
            + (count == 0
                ? " finds no statement in this text"
                : " reads " + count + " statements in this text")
            + "; Sonde runs exactly one statement per call");
  }
}
