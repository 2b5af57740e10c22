package dev.sonde.core;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** Times as Sonde shows them: epoch milliseconds beside a readable time in the user's zone. */
public final class Times {
  private static final DateTimeFormatter READABLE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS xxx");

  private Times() {}

  public static String readable(long epochMs, ZoneId zone) {
    return READABLE.format(Instant.ofEpochMilli(epochMs).atZone(zone));
  }

  /** {start_ms, end_ms, start, end, timezone}. */
  public static JsonObject range(long startMs, long endMs, ZoneId zone) {
    return new JsonObject()
        .put("start_ms", startMs)
        .put("end_ms", endMs)
        .put("start", readable(startMs, zone))
        .put("end", readable(endMs, zone))
        .put("timezone", zone.getId());
  }
}
