package dev.sonde.tools;

import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The optional {@code timezone} argument: the user's zone, else {@code timeseries.timezone}. A tool
 * reads it as {@code zone(ctx.arg(TIMEZONE), configured)}.
 */
public final class TimezoneArg {
  public static final Arg<String> TIMEZONE =
      Arg.string(
          "timezone",
          "IANA zone times are shown in, e.g. Asia/Seoul; default the server's configured zone");

  private TimezoneArg() {}

  /**
   * The zone {@code name} names, or {@code configured} (timeseries.timezone) when it is absent; an
   * unknown name is a caller error.
   */
  public static ZoneId zone(String name, String configured) {
    if (name == null || name.isBlank()) {
      return region(ZoneId.of(configured).normalized());
    }
    try {
      return region(ZoneId.of(name.trim()).normalized());
    } catch (DateTimeException e) {
      throw new CallerException(
          "unknown timezone " + Quote.of(name) + "; use an IANA name such as Europe/Paris or UTC");
    }
  }

  /**
   * An offset as the region database names it (+09:00 is Etc/GMT-9): engines read a bare offset in
   * a time zone name with POSIX's inverted sign, a region name they all read alike.
   */
  private static ZoneId region(ZoneId zone) {
    if (!(zone instanceof ZoneOffset offset)) {
      return zone;
    }
    int seconds = offset.getTotalSeconds();
    if (seconds == 0) {
      return ZoneId.of("UTC");
    }
    if (seconds % 3600 != 0) {
      throw new CallerException(
          "timezone "
              + Quote.of(offset.getId())
              + " is an offset of part of an hour; name the region instead, e.g. Asia/Kolkata");
    }
    int hours = seconds / 3600;
    return ZoneId.of("Etc/GMT" + (hours > 0 ? "-" : "+") + Math.abs(hours));
  }
}
