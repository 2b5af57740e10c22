package dev.sonde.tools;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.CancelledException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.util.UUID;

/**
 * What one family asks of another, over the event bus, as a part of the asking call: the answering
 * family runs an unlisted operation with the call's deadline and account, and stops it when the
 * call stops. A caller's mistake there (an unknown table) comes back as a {@link CallerException}
 * with the answering family's words. The families never see each other's classes, only these
 * operations and their JSON.
 */
public final class FamilyAsks {
  /** The time-series family: tag tables and the charts compiled from them. */
  public static final String TIME_SERIES = "timeseries";

  /**
   * {@code {connection, spec, timezone, max_points?}}: a chart spec compiled and read, as {@code
   * {document, series, summary}} (the document carries its {@code plan} and {@code option}).
   */
  public static final String CHART_DATA = "timeseries_chart_data";

  /**
   * {@code {connection, table, counts?, spans?}}: a tag table found by name (or refused with the
   * closest names), as {@code {table, qualified}}, with {@code by_count} (its tags, busiest first)
   * and {@code counts} when asked, and {@code spans} ({@code tag: [first, last]} epoch ms) when
   * asked.
   */
  public static final String TAG_STATS = "timeseries_tag_stats";

  /** {@code {connection}}: {@code {kinds: {qualified table: TAG or ROLLUP}}}. */
  public static final String TABLE_KINDS = "timeseries_table_kinds";

  /**
   * {@code {connection, table (qualified), timezone}}: {@code {profile}} of a tag table, or {@code
   * {}} for any other table.
   */
  public static final String TAG_PROFILE = "timeseries_tag_profile";

  /** The forecast family. */
  public static final String FORECAST = "forecast";

  /**
   * {@code {connection, spec, timezone}}: a forecast fitted and drawn as a panel: {@code {option,
   * series, summary, notices, range}}.
   */
  public static final String FORECAST_PANEL = "forecast_panel";

  /** Slack beyond the call's deadline for the answering family's own timeout answer. */
  private static final long ANSWER_SLACK_MILLIS = 5_000;

  /** The longest an ask of a call without deadline (Sonde's own work) waits. */
  private static final long NO_DEADLINE_WAIT_MILLIS = 3_600_000;

  private final Vertx vertx;

  public FamilyAsks(Vertx vertx) {
    this.vertx = vertx;
  }

  public Future<JsonObject> chartData(
      String connection, JsonObject spec, ZoneId zone, Integer maxPoints, Call call) {
    return ask(
        TIME_SERIES,
        CHART_DATA,
        new JsonObject()
            .put("connection", connection)
            .put("spec", spec)
            .put("timezone", zone.getId())
            .put("max_points", maxPoints),
        call);
  }

  public Future<JsonObject> tagStats(
      String connection, String table, boolean counts, boolean spans, Call call) {
    return ask(
        TIME_SERIES,
        TAG_STATS,
        new JsonObject()
            .put("connection", connection)
            .put("table", table)
            .put("counts", counts)
            .put("spans", spans),
        call);
  }

  public Future<JsonObject> tableKinds(String connection, Call call) {
    return ask(TIME_SERIES, TABLE_KINDS, new JsonObject().put("connection", connection), call)
        .map(answer -> answer.getJsonObject("kinds", new JsonObject()));
  }

  public Future<JsonObject> tagProfile(String connection, String table, ZoneId zone, Call call) {
    return ask(
        TIME_SERIES,
        TAG_PROFILE,
        new JsonObject()
            .put("connection", connection)
            .put("table", table)
            .put("timezone", zone.getId()),
        call);
  }

  public Future<JsonObject> forecastPanel(
      String connection, JsonObject spec, ZoneId zone, Call call) {
    return ask(
        FORECAST,
        FORECAST_PANEL,
        new JsonObject()
            .put("connection", connection)
            .put("spec", spec)
            .put("timezone", zone.getId()),
        call);
  }

  /** Asks {@code family} to run {@code operation} on {@code args} as a part of {@code call}. */
  public Future<JsonObject> ask(String family, String operation, JsonObject args, Call call) {
    if (call.isStopped()) {
      return Future.failedFuture(new CancelledException(call.stopReason()));
    }
    String id = UUID.randomUUID().toString();
    long now = System.currentTimeMillis();
    long wait =
        call.deadline() == Long.MAX_VALUE
            ? NO_DEADLINE_WAIT_MILLIS
            : Math.max(1, call.deadline() - now);
    DeliveryOptions options =
        new DeliveryOptions()
            .setSendTimeout(wait + ANSWER_SLACK_MILLIS)
            .addHeader(CallHeaders.TOOL, operation)
            .addHeader(CallHeaders.DEADLINE, String.valueOf(now + wait))
            .addHeader(CallHeaders.CALL, id);
    if (call.account() != null) {
      options.addHeader(CallHeaders.ACCOUNT, call.account());
    }
    Runnable unhook =
        call.onStop(
            () ->
                vertx
                    .eventBus()
                    .publish(
                        CallHeaders.CANCEL_ADDRESS,
                        new JsonObject().put("call", id).put("reason", call.stopReason())));
    return vertx
        .eventBus()
        .<ToolResult>request(CallHeaders.FAMILY_PREFIX + family, args, options)
        .andThen(done -> unhook.run())
        .transform(
            answered -> {
              if (call.isStopped()) {
                return Future.failedFuture(new CancelledException(call.stopReason()));
              }
              if (answered.failed()) {
                return Future.failedFuture(answered.cause());
              }
              ToolResult result = answered.result().body();
              if (result.isError()) {
                return Future.failedFuture(new CallerException(result.firstText()));
              }
              return Future.succeededFuture(result.structuredContent());
            });
  }
}
