package dev.sonde.timeseries;

import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import java.util.Locale;

/** What a chart shows: one tag's aggregates, several tags compared, candlesticks, coordinates. */
public enum ChartKind {
  METRICS,
  TAGS,
  OHLC,
  GEOMAP;

  /** Does the chart draw a series per tag, rather than per metric or of candles? */
  boolean perTag() {
    return this == TAGS || this == GEOMAP;
  }

  public static ChartKind of(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new CallerException(
          "spec.kind must be metrics, tags, ohlc or geomap, not " + Quote.of(name));
    }
  }
}
