package dev.sonde.timeseries;

import dev.sonde.core.Unit;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.time.zone.ZoneOffsetTransition;

/**
 * Bucket boundaries in a time zone: sub-day buckets count from the epoch, days start at midnight,
 * weeks on Monday, months on the 1st; and what a zone's offsets allow over a period.
 */
final class Buckets {
  private Buckets() {}

  /** The start of the bucket holding {@code at}. */
  static long alignDown(long at, Unit unit, int multiple, ZoneId zone) {
    if (!unit.calendar()) {
      long width = unit.millis() * multiple;
      return Math.floorDiv(at, width) * width;
    }
    ZonedDateTime t = Instant.ofEpochMilli(at).atZone(zone).truncatedTo(ChronoUnit.DAYS);
    if (unit == Unit.WEEK) {
      t = t.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
    } else if (unit == Unit.MONTH) {
      t = t.withDayOfMonth(1);
    }
    return t.toInstant().toEpochMilli();
  }

  /** The end of the bucket holding {@code at}: where the next one starts. */
  static long end(long at, Unit unit, int multiple, ZoneId zone) {
    long start = alignDown(at, unit, multiple, zone);
    if (!unit.calendar()) {
      return start + unit.millis() * multiple;
    }
    ZonedDateTime t = Instant.ofEpochMilli(start).atZone(zone);
    return (switch (unit) {
          case DAY -> t.plusDays(1);
          case WEEK -> t.plusWeeks(1);
          default -> t.plusMonths(1);
        })
        .toInstant()
        .toEpochMilli();
  }

  /**
   * {@code zone}'s offset when it does not change over the period, else {@code zone} itself. Only
   * for arithmetic: an offset's id ("Z", "+09:00") means other things to the engines' time zones.
   */
  static ZoneId constantOffset(ZoneId zone, long from, long until) {
    var rules = zone.getRules();
    ZoneOffsetTransition next = rules.nextTransition(Instant.ofEpochMilli(from));
    return next == null || next.toEpochSecond() * 1000 >= until
        ? rules.getOffset(Instant.ofEpochMilli(from))
        : zone;
  }

  /** Does {@code zone} keep its UTC offset a whole number of {@code millis} over the period? */
  static boolean offsetsAreMultiplesOf(ZoneId zone, long from, long until, long millis) {
    var rules = zone.getRules();
    Instant at = Instant.ofEpochMilli(from);
    if (rules.getOffset(at).getTotalSeconds() * 1000L % millis != 0) {
      return false;
    }
    ZoneOffsetTransition next = rules.nextTransition(at);
    while (next != null && next.toEpochSecond() * 1000 < until) {
      if (next.getOffsetAfter().getTotalSeconds() * 1000L % millis != 0) {
        return false;
      }
      next = rules.nextTransition(next.getInstant());
    }
    return true;
  }
}
