package dev.sonde.report;

import java.time.ZoneId;
import java.util.List;

/**
 * What a template analyses: the table, the bucket unit (or {@code raw}), the user's zone, each
 * tag's series, and for prices the per-bucket open, high, low and close of the first tag (may be
 * null).
 */
public record ReportData(
    String table, String unit, ZoneId zone, List<Series> series, Candles candles) {

  /** Per-bucket open, close, low and high of one tag. */
  public record Candles(String tag, long[] times, double[][] ocLh) {}
}
