package dev.sonde.core;

import java.util.Locale;

/** A bucket unit of charts and rollups, with how far a chart at that unit can reach. */
public enum Unit {
  SEC("sec", "second", 1000L, 3600L * 1000, 86400),
  MIN("min", "minute", 60_000L, 48L * 3600 * 1000, 1440),
  HOUR("hour", "hour", 3_600_000L, 30L * 86400 * 1000, 24),
  DAY("day", "day", 86_400_000L, 365L * 86400 * 1000, 1),
  WEEK("week", "week", 7 * 86_400_000L, 365L * 86400 * 1000, 1),
  MONTH("month", "month", 30 * 86_400_000L, Long.MAX_VALUE, 1);

  private final String specName;
  private final String sqlName;
  private final long millis;
  private final long drawableMillis;
  private final int maxMultipleWithoutRollup;

  Unit(String specName, String sqlName, long millis, long drawableMillis, int maxMultiple) {
    this.specName = specName;
    this.sqlName = sqlName;
    this.millis = millis;
    this.drawableMillis = drawableMillis;
    this.maxMultipleWithoutRollup = maxMultiple;
  }

  /** The name a spec uses: sec, min, hour, day, week, month. */
  public String specName() {
    return specName;
  }

  public String sqlName() {
    return sqlName;
  }

  /** The unit's length; a month counts as 30 days where a length is needed. */
  public long millis() {
    return millis;
  }

  /** Days, weeks and months follow the calendar in the user's timezone. */
  public boolean calendar() {
    return ordinal() >= DAY.ordinal();
  }

  /** The longest period one chart at this unit can draw (times the multiple). */
  public long drawableMillis() {
    return drawableMillis;
  }

  /** The largest multiple when no rollup serves the unit: one day's worth. */
  public int maxMultipleWithoutRollup() {
    return maxMultipleWithoutRollup;
  }

  public Unit coarser() {
    return this == MONTH ? MONTH : values()[ordinal() + 1];
  }

  public static Unit ofSpec(String name) {
    for (Unit u : values()) {
      if (u.specName.equals(name.toLowerCase(Locale.ROOT))) {
        return u;
      }
    }
    return null;
  }
}
