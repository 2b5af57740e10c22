package dev.sonde.tools;

import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import io.vertx.core.json.JsonObject;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The optional {@code timezone} argument: the user's zone, else {@code timeseries.timezone}. */
public final class TimezoneArg {
  private TimezoneArg() {}

  /** {@code schema} with the optional {@code timezone} property added. */
  public static JsonObject addTo(JsonObject schema) {
    return Schemas.prop(
        schema,
        "timezone",
        Schemas.string(
            "IANA zone times are shown in, e.g. Asia/Seoul; default the server's configured zone"),
        false);
  }

  /** The zone the call names, or the configured default; an unknown name is a caller error. */
  public static ZoneId zone(FamilyServices services, ToolContext ctx) {
    String name = ctx.args().getString("timezone");
    if (name == null || name.isBlank()) {
      return region(ZoneId.of(services.config().timeseries().timezone()).normalized());
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
