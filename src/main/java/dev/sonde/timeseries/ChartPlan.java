package dev.sonde.timeseries;

import dev.sonde.core.CallerException;
import dev.sonde.core.Unit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The period and unit a chart draws, by the reference system's rules. Unit only: keep the unit and
 * cut the period it can draw back from the data's last time. Period and unit: keep the period and
 * raise the unit when it is too fine (tag comparisons cut the period instead). Period only: choose
 * the unit. Neither: the whole range with a chosen unit. A period is first snapped to the data's
 * real bounds, so a feed that stopped never gives an empty chart. Every change is a notice.
 */
public record ChartPlan(Unit unit, int multiple, long start, long end, List<String> notices) {

  /**
   * What a spec asks for; null fields were not given. {@code maxBuckets}, when set, replaces the
   * span one chart at the unit draws (a forecast's training series).
   */
  public record Request(
      ChartKind kind,
      UnitPhrase unit,
      Long start,
      Long end,
      boolean rollupsAvailable,
      Integer maxBuckets) {}

  public static ChartPlan of(Request r, long first, long last) {
    List<String> notices = new ArrayList<>();
    UnitPhrase asked = r.unit();
    if (asked != null
        && !r.rollupsAvailable()
        && asked.multiple() > asked.unit().maxMultipleWithoutRollup()) {
      throw new CallerException(
          "rollupN "
              + asked.multiple()
              + " for "
              + asked.unit().specName()
              + " is more than one day's worth without rollups (at most "
              + asked.unit().maxMultipleWithoutRollup()
              + "); use a coarser unit");
    }
    boolean hasPeriod = r.start() != null || r.end() != null;
    long start = r.start() != null ? r.start() : first;
    long end = r.end() != null ? r.end() : last;
    if (end < start) {
      throw new CallerException("timeRange.end is before timeRange.start; swap them");
    }
    if (hasPeriod) {
      long[] snapped = snap(start, end, first, last, notices);
      start = snapped[0];
      end = snapped[1];
    }
    Unit unit;
    int multiple;
    if (asked != null && !hasPeriod) {
      unit = asked.unit();
      multiple = asked.multiple();
      long span = span(unit, multiple, r.maxBuckets());
      start = first;
      end = last;
      if (end - start > span) {
        start = end - span;
        notices.add(
            "period cut to the last "
                + human(span)
                + " before the data's last time: the most "
                + asked.label()
                + " buckets draw");
      }
    } else if (asked != null) {
      unit = asked.unit();
      multiple = asked.multiple();
      long period = end - start;
      if (period > span(unit, multiple, r.maxBuckets())) {
        if (r.kind() == ChartKind.TAGS) {
          start = end - span(unit, multiple, r.maxBuckets());
          notices.add(
              "period cut to the last "
                  + human(span(unit, multiple, r.maxBuckets()))
                  + ": "
                  + human(period)
                  + " is too long for "
                  + asked.label()
                  + " buckets");
        } else {
          Unit raised = unitFor(period, unit);
          notices.add(
              "unit raised from "
                  + asked.label()
                  + " to 1 "
                  + raised.specName()
                  + ": "
                  + human(period)
                  + " is too long for "
                  + asked.label()
                  + " buckets");
          unit = raised;
          multiple = 1;
        }
      }
    } else {
      unit = unitFor(end - start, Unit.SEC);
      multiple = 1;
      notices.add(
          (hasPeriod
                  ? "unit chosen for a period of "
                  : "no period or unit given: the whole range (")
              + human(end - start)
              + (hasPeriod ? "" : ")")
              + " at 1 "
              + unit.specName());
    }
    return new ChartPlan(unit, multiple, start, end, List.copyOf(notices));
  }

  /** The longest period {@code multiple} buckets of {@code unit} can draw. */
  static long span(Unit unit, int multiple, Integer maxBuckets) {
    if (maxBuckets != null) {
      return unit.millis() * multiple * maxBuckets;
    }
    long drawable = unit.drawableMillis();
    return drawable == Long.MAX_VALUE ? Long.MAX_VALUE : drawable * multiple;
  }

  /** The finest unit, from {@code from} up, whose drawable span covers {@code period}. */
  private static Unit unitFor(long period, Unit from) {
    Unit u = from;
    while (u != Unit.MONTH && period > u.drawableMillis()) {
      u = u.coarser();
    }
    return u;
  }

  private static long[] snap(long start, long end, long first, long last, List<String> notices) {
    if (start > last || end < first) {
      long period = end - start;
      long newStart = Math.max(first, last - period);
      notices.add(
          "the asked period holds no data (the data runs to its last time, before or after it);"
              + " showing the same length, "
              + human(period)
              + ", up to the last time");
      return new long[] {newStart, last};
    }
    long s = Math.max(start, first);
    long e = Math.min(end, last);
    if (s != start || e != end) {
      notices.add("period snapped to where the data is: " + human(e - s) + " of it");
    }
    return new long[] {s, e};
  }

  /** "6 hours", "30 days", "1 hour 30 minutes". */
  static String human(long millis) {
    Duration d = Duration.ofMillis(millis);
    if (d.toDays() >= 2) {
      return d.toDays() + " days";
    }
    if (d.toHours() >= 2) {
      return d.toHours() + " hours";
    }
    if (d.toMinutes() >= 2) {
      return d.toMinutes() + " minutes";
    }
    return d.toSeconds() + " seconds";
  }
}
