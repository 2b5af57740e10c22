package dev.sonde.schema;

import dev.sonde.db.DatabaseRegistry;
import dev.sonde.db.TableRef;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;

/** Completion of connection, table and column names, shared by resource templates and prompts. */
final class SchemaCompletions {
  static final List<String> DIALECTS =
      List.of(
          "bigquery",
          "duckdb",
          "h2",
          "mysql",
          "oracle",
          "postgresql",
          "snowflake",
          "sqlite",
          "sqlserver");

  private SchemaCompletions() {}

  static Future<List<String>> complete(
      DatabaseRegistry databases,
      String variable,
      String prefix,
      JsonObject resolved,
      String account) {
    String wanted = prefix == null ? "" : prefix.toLowerCase(Locale.ROOT);
    try {
      return switch (variable) {
        case "connection" -> Future.succeededFuture(matching(databases.names(), wanted));
        case "table" ->
            databases
                .get(resolved.getString("connection"), account)
                .tables()
                .map(
                    tables ->
                        matching(
                            tables.stream().map(SchemaCompletions::shortName).sorted().toList(),
                            wanted));
        case "column" ->
            resolved.getString("table") == null
                ? Future.succeededFuture(List.of())
                : databases
                    .get(resolved.getString("connection"), account)
                    .describe(resolved.getString("table"))
                    .map(
                        d ->
                            matching(
                                d.getJsonArray("columns").stream()
                                    .map(c -> ((JsonObject) c).getString("name"))
                                    .toList(),
                                wanted));
        case "from_dialect" -> Future.succeededFuture(matching(DIALECTS, wanted));
        default -> Future.succeededFuture(List.of());
      };
    } catch (RuntimeException e) {
      return Future.succeededFuture(List.of());
    }
  }

  private static String shortName(TableRef table) {
    return table.schema() == null || table.schema().isEmpty()
        ? table.name()
        : table.schema() + "." + table.name();
  }

  private static List<String> matching(List<String> values, String prefix) {
    return values.stream()
        .filter(
            v ->
                v.toLowerCase(Locale.ROOT).startsWith(prefix)
                    || v.toLowerCase(Locale.ROOT).contains("." + prefix))
        .toList();
  }
}
