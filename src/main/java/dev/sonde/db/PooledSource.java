package dev.sonde.db;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;

/** A JDBC URL behind an Agroal pool; connections are validated and reset on return. */
final class PooledSource implements ConnectionSource {
  private final AgroalDataSource pool;
  private final int max;
  private final StatementWall wall;

  /**
   * {@code properties} are JDBC connection properties the dialect needs (e.g. PostgreSQL options);
   * {@code wall}, when given, wraps every connection lent (see {@link StatementWall}).
   */
  PooledSource(
      String url,
      String user,
      String password,
      int max,
      Map<String, String> properties,
      StatementWall wall)
      throws SQLException {
    this.max = max;
    this.wall = wall;
    AgroalDataSourceConfigurationSupplier config = new AgroalDataSourceConfigurationSupplier();
    config
        .connectionPoolConfiguration()
        .maxSize(max)
        .minSize(0)
        .acquisitionTimeout(Duration.ofSeconds(30))
        .validationTimeout(Duration.ofSeconds(30))
        .connectionFactoryConfiguration()
        .jdbcUrl(url)
        .autoCommit(true);
    properties.forEach(
        (key, value) ->
            config
                .connectionPoolConfiguration()
                .connectionFactoryConfiguration()
                .jdbcProperty(key, value));
    if (user != null && !user.isEmpty()) {
      config
          .connectionPoolConfiguration()
          .connectionFactoryConfiguration()
          .principal(new NamePrincipal(user));
    }
    if (password != null && !password.isEmpty()) {
      config
          .connectionPoolConfiguration()
          .connectionFactoryConfiguration()
          .credential(new SimplePassword(password));
    }
    pool = AgroalDataSource.from(config);
  }

  @Override
  public Connection borrow() throws SQLException {
    Connection connection = pool.getConnection();
    return wall == null ? connection : wall.wrap(connection);
  }

  @Override
  public JsonObject usage() {
    return new JsonObject()
        .put("active", pool.getMetrics().activeCount())
        .put("idle", pool.getMetrics().availableCount())
        .put("max", max);
  }

  @Override
  public void close() {
    pool.close();
  }
}
