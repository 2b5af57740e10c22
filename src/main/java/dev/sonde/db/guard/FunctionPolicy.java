package dev.sonde.db.guard;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which functions a read may call on one connection, judged by what the engine's own catalogue says
 * each function does rather than by how it is spelled: a function the engine marks volatile (it may
 * change state, or answer more than its arguments determine), one that runs with its owner's
 * rights, and a DuckDB table function nobody reviewed are refused, unless a short reviewed list
 * says the function only reads. Functions that run SQL or an expression language given as text are
 * refused whatever the catalogue says, and so is every name on the engine's fixed denylist. Names
 * compare case-insensitively: a quoted "Pg_Read_File" is judged with pg_read_file.
 */
public final class FunctionPolicy implements FunctionJudge {
  /** Volatile PostgreSQL functions that only read or draw random numbers; reviewed one by one. */
  static final Set<String> POSTGRES_HARMLESS_VOLATILE =
      Set.of(
          "random",
          "random_normal",
          "gen_random_uuid",
          "uuid_generate_v1",
          "uuid_generate_v1mc",
          "uuid_generate_v4",
          "clock_timestamp",
          "timeofday",
          // the AT TIME ZONE function: one of its forms is marked volatile
          "timezone",
          // TABLESAMPLE methods, called as SYSTEM (10) and BERNOULLI (10)
          "system",
          "bernoulli",
          "system_rows",
          "system_time",
          "currval",
          "lastval",
          "pg_sequence_last_value",
          "current_query",
          "pg_blocking_pids",
          "pg_safe_snapshot_blocking_pids",
          "pg_lock_status",
          "pg_partition_tree",
          "pg_partition_ancestors",
          "pg_is_in_recovery",
          "pg_is_in_backup",
          "pg_is_wal_replay_paused",
          "pg_get_wal_replay_pause_state",
          "pg_jit_available",
          "pg_relation_size",
          "pg_total_relation_size",
          "pg_table_size",
          "pg_indexes_size",
          "pg_database_size",
          "pg_tablespace_size",
          "pg_current_wal_lsn",
          "pg_current_wal_insert_lsn",
          "pg_current_wal_flush_lsn",
          "pg_last_wal_receive_lsn",
          "pg_last_wal_replay_lsn",
          "pg_last_xact_replay_timestamp",
          "pg_last_committed_xact",
          "pg_xact_status",
          "txid_status",
          "pg_xact_commit_timestamp",
          "pg_xact_commit_timestamp_origin",
          "pg_notification_queue_usage",
          "pg_collation_actual_version");

  /** Volatile DuckDB scalar functions that only read or draw random numbers. */
  static final Set<String> DUCKDB_HARMLESS_VOLATILE =
      Set.of(
          "random",
          "uuid",
          "uuidv4",
          "uuidv7",
          "gen_random_uuid",
          "current_query",
          "current_query_id",
          "current_transaction_id",
          "current_connection_id",
          "currval",
          "error",
          "stats");

  /**
   * DuckDB table functions that only read the catalogue, generate rows or unnest values; every
   * other table function (files, checkpoints, logging switches, memory scans, dynamic SQL) is
   * refused. DuckDB's catalogue gives table functions no stability, so this list is the judgement.
   */
  static final Set<String> DUCKDB_READING_TABLE_FUNCTIONS =
      Set.of(
          "duckdb_columns",
          "duckdb_constraints",
          "duckdb_databases",
          "duckdb_dependencies",
          "duckdb_extensions",
          "duckdb_functions",
          "duckdb_indexes",
          "duckdb_keywords",
          "duckdb_schemas",
          "duckdb_sequences",
          "duckdb_tables",
          "duckdb_types",
          "duckdb_views",
          "duckdb_settings",
          "duckdb_memory",
          "duckdb_optimizers",
          "duckdb_variables",
          "duckdb_connection_count",
          "duckdb_approx_database_count",
          "duckdb_coordinate_systems",
          "duckdb_secret_types",
          "duckdb_table_sample",
          "generate_series",
          "range",
          "unnest",
          "repeat",
          "repeat_row",
          "json_each",
          "json_tree",
          "pg_timezone_names",
          "icu_calendar_names",
          "summary",
          "seq_scan",
          "test_all_types",
          "test_vector_types",
          "pragma_table_info",
          "pragma_version",
          "pragma_platform",
          "pragma_collations",
          "pragma_database_size",
          "pragma_storage_info",
          "pragma_metadata_info",
          "pragma_show",
          "pragma_user_agent",
          "histogram",
          "histogram_values");

  /** Functions that run SQL, or an expression language over data, given as text. */
  static final Set<String> RUN_TEXT =
      Set.of(
          "query_to_xml",
          "query_to_xml_and_xmlschema",
          "query_to_xmlschema",
          "cursor_to_xml",
          "cursor_to_xmlschema",
          "ts_stat",
          "ts_rewrite",
          "xpath",
          "xpath_exists",
          "xmlexists",
          "xmltable",
          "query",
          "query_table",
          "json_execute_serialized_sql");

  /** One function name as the engine's catalogue describes it (any of its forms). */
  record CatalogFunction(
      String name,
      boolean volatileKind,
      boolean ownersRights,
      boolean tableFunction,
      boolean userMacro) {}

  private final Map<String, String> refused;
  private final Set<String> known;
  private final Set<String> userMacros;

  /** Types someone created (DuckDB): their definitions (an ENUM's labels) are the catalogue's. */
  private final Set<String> userTypes;

  /** Functions that run as another role: refused wherever their name stands (t.f calls f). */
  private final Set<String> otherRoles;

  private FunctionPolicy(
      Map<String, String> refused,
      Set<String> known,
      Set<String> userMacros,
      Set<String> userTypes,
      Set<String> otherRoles) {
    this.refused = Map.copyOf(refused);
    this.known = known == null ? null : Set.copyOf(known);
    this.userMacros = Set.copyOf(userMacros);
    this.userTypes = Set.copyOf(userTypes);
    this.otherRoles = Set.copyOf(otherRoles);
  }

  /** The engine's fixed denylist and the text-running functions, with no catalogue behind them. */
  public static FunctionPolicy fixed(Set<String> denylist) {
    return new FunctionPolicy(base(denylist), null, Set.of(), Set.of(), Set.of());
  }

  /** PostgreSQL's judgement from {@code pg_proc}: volatility, and whether it runs as its owner. */
  public static FunctionPolicy postgres(Set<String> denylist, Connection connection)
      throws SQLException {
    // a function that sets the role or session user as it runs is another role's too, and so is
    // an aggregate that calls one at any of its steps
    List<CatalogFunction> catalog =
        catalog(
            connection,
            """
            WITH other_role AS (
              SELECT oid FROM pg_catalog.pg_proc
               WHERE prosecdef OR EXISTS (SELECT 1 FROM unnest(proconfig) AS c(setting)
                     WHERE lower(setting) LIKE 'role=%'
                        OR lower(setting) LIKE 'session_authorization=%'))
            SELECT p.proname, bool_or(p.provolatile = 'v'),
                   bool_or(p.oid IN (SELECT oid FROM other_role)
                           OR EXISTS (SELECT 1 FROM pg_catalog.pg_aggregate a
                                       WHERE a.aggfnoid = p.oid
                                         AND ARRAY[a.aggtransfn, a.aggfinalfn, a.aggcombinefn,
                                                   a.aggserialfn, a.aggdeserialfn, a.aggmtransfn,
                                                   a.aggminvtransfn, a.aggmfinalfn]::oid[]
                                             && ARRAY(SELECT oid FROM other_role))),
                   false, false
              FROM pg_catalog.pg_proc p GROUP BY p.proname
            """);
    // keywords and type names stand before a parenthesis too: IN (...), numeric(10, 2)
    Set<String> otherNames =
        names(
            connection,
            "SELECT word FROM pg_catalog.pg_get_keywords()"
                + " UNION SELECT typname FROM pg_catalog.pg_type");
    return fromCatalog(denylist, catalog, otherNames, Set.of(), POSTGRES_HARMLESS_VOLATILE, null);
  }

  /** DuckDB's judgement from {@code duckdb_functions()}: volatility, side effects, table kind. */
  public static FunctionPolicy duckdb(Set<String> denylist, Connection connection)
      throws SQLException {
    List<CatalogFunction> catalog =
        catalog(
            connection,
            "SELECT function_name, bool_or(stability = 'VOLATILE' OR has_side_effects), false,"
                + " bool_and(function_type IN ('table', 'pragma')),"
                + " bool_or(function_type IN ('macro', 'table_macro') AND NOT internal)"
                + " FROM duckdb_functions() GROUP BY function_name");
    Set<String> otherNames =
        names(
            connection,
            "SELECT keyword_name FROM duckdb_keywords() UNION SELECT type_name FROM duckdb_types()");
    Set<String> userTypes =
        names(connection, "SELECT type_name FROM duckdb_types() WHERE NOT internal");
    return fromCatalog(
        denylist,
        catalog,
        otherNames,
        userTypes,
        DUCKDB_HARMLESS_VOLATILE,
        DUCKDB_READING_TABLE_FUNCTIONS);
  }

  private static Set<String> names(Connection connection, String sql) throws SQLException {
    return new HashSet<>(rows(connection, sql, rs -> rs.getString(1).toLowerCase(Locale.ROOT)));
  }

  private static List<CatalogFunction> catalog(Connection connection, String sql)
      throws SQLException {
    return rows(
        connection,
        sql,
        rs ->
            new CatalogFunction(
                rs.getString(1),
                rs.getBoolean(2),
                rs.getBoolean(3),
                rs.getBoolean(4),
                rs.getBoolean(5)));
  }

  /** One row of a catalogue query, read into a value. */
  @FunctionalInterface
  private interface Row<T> {
    T read(ResultSet rs) throws SQLException;
  }

  private static <T> List<T> rows(Connection connection, String sql, Row<T> row)
      throws SQLException {
    List<T> out = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      while (rs.next()) {
        out.add(row.read(rs));
      }
    }
    return out;
  }

  private static FunctionPolicy fromCatalog(
      Set<String> denylist,
      Iterable<CatalogFunction> catalog,
      Set<String> otherNames,
      Set<String> userTypes,
      Set<String> harmlessVolatile,
      Set<String> readingTableFunctions) {
    Map<String, String> refused = base(denylist);
    Set<String> known = new HashSet<>(otherNames);
    Set<String> userMacros = new HashSet<>();
    Set<String> otherRoles = new HashSet<>();
    for (CatalogFunction function : catalog) {
      String name = function.name().toLowerCase(Locale.ROOT);
      known.add(name);
      if (function.userMacro()) {
        userMacros.add(name);
      }
      if (refused.containsKey(name)) {
        continue;
      }
      if (function.ownersRights()) {
        otherRoles.add(name);
        refused.put(
            name, "it runs as another role (SECURITY DEFINER, or a SET role in its definition)");
      } else if (function.volatileKind() && !harmlessVolatile.contains(name)) {
        refused.put(
            name,
            "the database marks it volatile (it may change state) and it is not on Sonde's"
                + " list of volatile functions that only read");
      } else if (function.tableFunction()
          && readingTableFunctions != null
          && !readingTableFunctions.contains(name)) {
        refused.put(
            name, "it is not on Sonde's list of table functions that only read the database");
      }
    }
    return new FunctionPolicy(refused, known, userMacros, userTypes, otherRoles);
  }

  private static Map<String, String> base(Set<String> denylist) {
    Map<String, String> refused = new HashMap<>();
    for (String name : denylist) {
      refused.put(
          name,
          "it reads files or the network, waits, takes locks, runs dynamic SQL or changes state");
    }
    for (String name : RUN_TEXT) {
      refused.put(name, "it runs SQL or an expression given as text");
    }
    return refused;
  }

  @Override
  public String refusal(String name) {
    String folded = name.toLowerCase(Locale.ROOT);
    String reason = refused.get(folded);
    return reason == null
        ? null
        : folded + "() is not allowed: " + reason + "; query the tables directly";
  }

  @Override
  public String nameRefusal(String name) {
    return otherRoles.contains(name.toLowerCase(Locale.ROOT)) ? refusal(name) : null;
  }

  /**
   * Whether {@code name} is a macro someone created (DuckDB), whose body may read any table: an
   * account with an allow-list may not call it.
   */
  public boolean isUserMacro(String name) {
    return userMacros.contains(name.toLowerCase(Locale.ROOT));
  }

  /**
   * Whether {@code name} is a type someone created (DuckDB): an account with an allow-list may not
   * name it, since casting to it, or failing to, shows its definition.
   */
  public boolean isUserType(String name) {
    return userTypes.contains(name.toLowerCase(Locale.ROOT));
  }

  /**
   * Whether the catalogue this policy was built from lists {@code name} (as a function, keyword or
   * type); a name it does not know was created since, or does not exist, or names a table.
   */
  public boolean knows(String name) {
    return known == null || known.contains(name.toLowerCase(Locale.ROOT));
  }
}
