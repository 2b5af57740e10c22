package dev.sonde.timeseries;

import dev.sonde.core.Call;
import dev.sonde.db.Database;
import java.time.ZoneId;

/**
 * What one compile works on: where, the checked spec, in which zone, how many buckets at most
 * (null: what one chart draws), and the call whose stop stops its statement.
 */
record ChartRequest(
    Database db,
    Engine engine,
    TagTable table,
    ChartSpec spec,
    ZoneId zone,
    Integer maxBuckets,
    Call call) {

  /** The same request drawing raw values: one series per tag. */
  ChartRequest asRaw() {
    return new ChartRequest(db, engine, table, spec.asRaw(), zone, maxBuckets, call);
  }

  /** The SQL of charts over this request's table. */
  ChartSql sql() {
    return new ChartSql(db, engine, table);
  }
}
