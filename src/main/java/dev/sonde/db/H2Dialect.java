package dev.sonde.db;

import dev.sonde.core.CallerException;
import dev.sonde.db.guard.SqlGuard;
import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.h2.jdbc.JdbcPreparedStatement;

/**
 * H2: reads run in a JDBC transaction that is rolled back. H2 ignores read-only connections (and
 * commits DDL on its own), so it relies on the strict guard: {@code engine-only} is refused.
 */
final class H2Dialect extends Dialect {
  @Override
  public String name() {
    return "h2";
  }

  @Override
  public SqlGuard.Profile guardProfile() {
    return SqlGuard.Profile.H2;
  }

  /**
   * H2's driver runs every statement of a text, prepared or not. Its prepared statement holds a
   * list of commands for such a text: only a statement that holds one is let through, and a plain
   * text is prepared first to tell.
   */
  @Override
  StatementWall wall() {
    return new StatementWall() {
      @Override
      void before(Connection connection, String sql, boolean prepared) throws SQLException {
        if (!prepared) {
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            after(statement, sql);
          }
        }
      }

      @Override
      void after(PreparedStatement statement, String sql) throws SQLException {
        Object command;
        try {
          Field field = JdbcPreparedStatement.class.getDeclaredField("command");
          field.setAccessible(true);
          command = field.get(statement.unwrap(JdbcPreparedStatement.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
          throw new CallerException("refused: cannot tell how many statements H2 would run");
        }
        // one statement is a CommandContainer; several are a CommandList; remote ones cannot tell
        if (command == null
            || !"org.h2.command.CommandContainer".equals(command.getClass().getName())) {
          throw StatementWall.refused(
              "H2",
              command != null && command.getClass().getName().endsWith("CommandList") ? 2 : 0);
        }
      }
    };
  }
}
