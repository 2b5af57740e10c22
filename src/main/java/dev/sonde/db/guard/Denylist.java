package dev.sonde.db.guard;

import java.util.Set;

/**
 * Functions with side effects or ways out (files, network, sleeping, locks, sequences, dynamic
 * SQL), refused wherever they appear, FROM-clause table functions included.
 */
final class Denylist {
  private Denylist() {}

  static final Set<String> POSTGRES =
      Set.of(
          "nextval",
          "setval",
          "pg_sleep",
          "pg_sleep_for",
          "pg_sleep_until",
          "pg_read_file",
          "pg_read_binary_file",
          "pg_ls_dir",
          "pg_stat_file",
          "pg_ls_logdir",
          "pg_ls_waldir",
          "pg_ls_tmpdir",
          "pg_ls_archive_statusdir",
          // PostgreSQL 15's: named here so a server of any version refuses them by name
          "pg_ls_logicalsnapdir",
          "pg_ls_logicalmapdir",
          "pg_ls_replslotdir",
          "lo_import",
          "lo_export",
          "lo_from_bytea",
          "lo_put",
          "lo_unlink",
          "lo_create",
          "dblink",
          "dblink_exec",
          "dblink_connect",
          "dblink_connect_u",
          "dblink_send_query",
          "dblink_open",
          "dblink_fetch",
          "pg_advisory_lock",
          "pg_advisory_lock_shared",
          "pg_try_advisory_lock",
          "pg_try_advisory_lock_shared",
          "pg_advisory_xact_lock",
          "pg_advisory_xact_lock_shared",
          "pg_try_advisory_xact_lock",
          "pg_try_advisory_xact_lock_shared",
          "pg_terminate_backend",
          "pg_cancel_backend",
          "pg_reload_conf",
          "pg_rotate_logfile",
          "set_config",
          "pg_notify",
          "query_to_xml",
          "query_to_xml_and_xmlschema",
          "query_to_xmlschema",
          "cursor_to_xml",
          "pg_logical_emit_message",
          "pg_create_restore_point",
          "pg_switch_wal",
          "pg_backup_start",
          "pg_backup_stop",
          "pg_promote",
          "pg_file_write",
          "pg_file_rename",
          "pg_file_unlink",
          "pg_logdir_ls",
          "txid_current",
          "pg_current_xact_id",
          "copy_file");

  static final Set<String> DUCKDB =
      Set.of(
          "nextval",
          "setval",
          "currval",
          "read_csv",
          "read_csv_auto",
          "read_parquet",
          "parquet_scan",
          "read_json",
          "read_json_auto",
          "read_json_objects",
          "read_json_objects_auto",
          "read_ndjson",
          "read_ndjson_auto",
          "read_ndjson_objects",
          "read_text",
          "read_blob",
          "glob",
          "sniff_csv",
          "parquet_metadata",
          "parquet_schema",
          "parquet_file_metadata",
          "parquet_kv_metadata",
          "parquet_bloom_probe",
          "iceberg_scan",
          "iceberg_metadata",
          "iceberg_snapshots",
          "delta_scan",
          "read_xlsx",
          "st_read",
          "st_read_meta",
          "sqlite_scan",
          "sqlite_attach",
          "postgres_scan",
          "postgres_query",
          "postgres_execute",
          "mysql_scan",
          "mysql_query",
          "mysql_execute",
          "query",
          "query_table",
          "getenv",
          "duckdb_secrets",
          "which_secret",
          "httpfs_get",
          "read_xml",
          "json_execute_serialized_sql");

  static final Set<String> MYSQL =
      Set.of(
          "load_file",
          "sleep",
          "benchmark",
          "get_lock",
          "release_lock",
          "release_all_locks",
          "is_used_lock",
          "master_pos_wait",
          "source_pos_wait",
          "sys_exec",
          "sys_eval",
          "sys_get",
          "sys_set",
          "lo_import",
          "wait_for_executed_gtid_set",
          "wait_until_sql_thread_after_gtids",
          "nextval",
          "setval",
          "lastval");

  static final Set<String> SQLITE =
      Set.of(
          "load_extension",
          "writefile",
          "readfile",
          "edit",
          "fts3_tokenizer",
          "zipfile",
          "sqlar_compress");

  static final Set<String> H2 =
      Set.of(
          "file_read",
          "file_write",
          "csvread",
          "csvwrite",
          "link_schema",
          "nextval",
          "setval",
          "cancel_session",
          "abort_session",
          "sleep",
          "java_object");

  static final Set<String> ALL = union(POSTGRES, DUCKDB, MYSQL, SQLITE, H2);

  @SafeVarargs
  private static Set<String> union(Set<String>... sets) {
    java.util.Set<String> all = new java.util.HashSet<>();
    for (Set<String> set : sets) {
      all.addAll(set);
    }
    return Set.copyOf(all);
  }
}
