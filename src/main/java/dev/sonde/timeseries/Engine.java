package dev.sonde.timeseries;

import dev.sonde.core.CallerException;
import dev.sonde.core.Unit;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The SQL that differs between engines for time series: epoch milliseconds, time literals, first
 * and last values, and calendar buckets in a timezone. Everything else Sonde writes is common SQL,
 * so DuckDB and PostgreSQL give the same buckets for the same data.
 */
enum Engine {
  DUCKDB {
    @Override
    String epochMs(String time) {
      return "epoch_ms(" + time + ")";
    }

    @Override
    String first(String value, String order) {
      return "arg_min(" + value + ", " + order + ")";
    }

    @Override
    String last(String value, String order) {
      return "arg_max(" + value + ", " + order + ")";
    }
  },
  POSTGRES {
    @Override
    String epochMs(String time) {
      return "CAST(floor(extract(epoch FROM " + time + ") * 1000) AS BIGINT)";
    }

    @Override
    String first(String value, String order) {
      return "(array_agg(" + value + " ORDER BY " + order + "))[1]";
    }

    @Override
    String last(String value, String order) {
      return "(array_agg(" + value + " ORDER BY " + order + " DESC))[1]";
    }
  };

  /** 1970-01-01 was a Thursday: three days after the Monday that starts its week. */
  private static final long MONDAY_SHIFT = 3 * 86_400_000L;

  private static final DateTimeFormatter WALL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  /** The engine of a connection's dialect, or a refusal naming the engines that are supported. */
  static Engine of(String dialect) {
    return switch (dialect) {
      case "duckdb" -> DUCKDB;
      case "postgres" -> POSTGRES;
      default ->
          throw new CallerException(
              "time-series tools run on DuckDB and PostgreSQL connections; this one is " + dialect);
    };
  }

  /** Milliseconds since the epoch of a time expression (a time without zone is UTC). */
  abstract String epochMs(String time);

  /** The value at the smallest {@code order}. */
  abstract String first(String value, String order);

  /** The value at the largest {@code order}. */
  abstract String last(String value, String order);

  /** A literal to compare the time column with, so the engine can prune by it. */
  String timeLiteral(long epochMs, boolean zoned) {
    String wall = WALL.format(Instant.ofEpochMilli(epochMs));
    return zoned ? "TIMESTAMPTZ '" + wall + "+00'" : "TIMESTAMP '" + wall + "'";
  }

  /**
   * The start, in epoch milliseconds, of the bucket holding epoch-milliseconds expression {@code
   * ms}. Sub-day units count from the epoch; days start at midnight in {@code zone}, weeks on
   * Monday, months on the 1st. A {@link ZoneOffset} (a zone whose offset is constant over the
   * chart) lets days and weeks be computed without a conversion per row.
   */
  String bucket(String ms, Unit unit, int multiple, ZoneId zone) {
    if (!unit.calendar()) {
      long width = unit.millis() * multiple;
      return "CAST(floor(" + ms + " / " + width + ".0) AS BIGINT) * " + width;
    }
    if (zone instanceof ZoneOffset offset && unit != Unit.MONTH) {
      // a zone whose offset does not change over the chart: days and weeks are plain arithmetic
      long shift = offset.getTotalSeconds() * 1000L + (unit == Unit.WEEK ? MONDAY_SHIFT : 0);
      long width = unit.millis();
      return "CAST(floor(("
          + ms
          + " + "
          + shift
          + ") / "
          + width
          + ".0) AS BIGINT) * "
          + width
          + " - "
          + shift;
    }
    String local = "(to_timestamp(" + ms + " / 1000.0) AT TIME ZONE '" + zone.getId() + "')";
    return epochMs(
        "(date_trunc('"
            + unit.sqlName()
            + "', "
            + local
            + ") AT TIME ZONE '"
            + zone.getId()
            + "')");
  }
}
