package dev.sonde.report;

import java.time.ZoneId;
import java.util.List;

/**
 * What a template analyses: the user's zone, each tag's series, and for prices the per-bucket open,
 * close, low and high of the price tag (null for other templates).
 */
public record ReportData(ZoneId zone, List<Series> series, Candles candles) {

  /** Per-bucket open, close, low and high of one tag. */
  public record Candles(String tag, long[] times, double[][] ocLh) {}
}
