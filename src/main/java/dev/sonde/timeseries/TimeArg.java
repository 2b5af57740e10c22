package dev.sonde.timeseries;

import dev.sonde.core.CallerException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A time in a spec: epoch milliseconds, ISO-8601 (a time without offset is in the user's zone),
 * {@code now}, {@code last} (the data's last time), {@code first}, or one of those minus a duration
 * ({@code now-6h}, {@code last-30m}, {@code last-7d}).
 */
final class TimeArg {
  private static final Pattern RELATIVE =
      Pattern.compile("(?i)(now|last|latest|first)\\s*(?:([-+])\\s*(\\d+)\\s*(ms|s|m|h|d|w))?");

  private TimeArg() {}

  static Long parse(Object value, String field, ZoneId zone, long first, long last) {
    if (value == null) {
      return null;
    }
    if (value instanceof Number n) {
      return n.longValue();
    }
    String text = value.toString().trim();
    if (text.isEmpty()) {
      return null;
    }
    Matcher m = RELATIVE.matcher(text);
    if (m.matches()) {
      String base = m.group(1).toLowerCase(java.util.Locale.ROOT);
      long at =
          switch (base) {
            case "now" -> System.currentTimeMillis();
            case "first" -> first;
            default -> last;
          };
      if (m.group(2) != null) {
        long amount = Long.parseLong(m.group(3)) * unitMillis(m.group(4));
        at += m.group(2).equals("-") ? -amount : amount;
      }
      return at;
    }
    if (text.matches("-?\\d{9,}")) {
      return Long.parseLong(text);
    }
    try {
      return OffsetDateTime.parse(text.replace(' ', 'T')).toInstant().toEpochMilli();
    } catch (DateTimeParseException ignored) {
      // not with an offset; try the other spellings
    }
    try {
      return Instant.parse(text.replace(' ', 'T')).toEpochMilli();
    } catch (DateTimeParseException ignored) {
      // not an instant
    }
    try {
      return LocalDateTime.parse(text.replace(' ', 'T')).atZone(zone).toInstant().toEpochMilli();
    } catch (DateTimeParseException ignored) {
      // not a local date-time
    }
    try {
      return LocalDate.parse(text).atStartOfDay(zone).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new CallerException(
          field
              + " '"
              + text
              + "' is not a time: use ISO-8601 (2026-11-30T09:00, 2026-11-30), epoch"
              + " milliseconds, now, last (the data's last time), or now-6h / last-30m");
    }
  }

  private static long unitMillis(String unit) {
    return switch (unit.toLowerCase(java.util.Locale.ROOT)) {
      case "ms" -> 1;
      case "s" -> 1000;
      case "m" -> 60_000;
      case "h" -> 3_600_000;
      case "d" -> 86_400_000;
      default -> 7 * 86_400_000L;
    };
  }
}
