package dev.sonde.system;

import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.CallHeaders;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Is Sonde well: the process, the event bus, and every tool family answering within budget. */
final class HealthCheckTool implements Tool {
  private static final long FAMILY_BUDGET_MILLIS = 2_000;
  private static final ToolSpec SPEC =
      ToolSpec.builder("health_check")
          .title("Health check")
          .description(
              "Checks the process, the event bus, every database connection (version, round trip,"
                  + " pool) and that every tool family answers within "
                  + FAMILY_BUDGET_MILLIS
                  + " ms. status is ok or degraded; degraded lists what failed.")
          .output(
              Schemas.prop(
                  Schemas.prop(
                      Schemas.result(),
                      "status",
                      new JsonObject()
                          .put("type", "string")
                          .put(
                              "enum", new io.vertx.core.json.JsonArray().add("ok").add("degraded")),
                      true),
                  "families",
                  new JsonObject().put("type", "object"),
                  true))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  private final DatabaseRegistry databases;
  private final Instant startedAt;

  HealthCheckTool(DatabaseRegistry databases, Instant startedAt) {
    this.databases = databases;
    this.startedAt = startedAt;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    long t0 = System.nanoTime();
    return ctx.vertx()
        .eventBus()
        .<JsonObject>request(
            CallHeaders.MCP_STATUS_ADDRESS,
            new JsonObject(),
            new DeliveryOptions().setSendTimeout(FAMILY_BUDGET_MILLIS))
        .compose(
            status -> {
              long busMicros = (System.nanoTime() - t0) / 1000;
              List<String> families =
                  new ArrayList<>(status.body().getJsonObject("families").fieldNames());
              List<Future<JsonObject>> pings = families.stream().map(f -> ping(ctx, f)).toList();
              Future<JsonObject> connections = databases.health();
              return Future.join(Future.join(pings), connections)
                  .transform(
                      done -> {
                        JsonObject byFamily = new JsonObject();
                        boolean ok = true;
                        for (int i = 0; i < families.size(); i++) {
                          JsonObject result = pings.get(i).result();
                          ok &= result.getBoolean("ok");
                          byFamily.put(families.get(i), result);
                        }
                        for (String name : connections.result().fieldNames()) {
                          ok &= connections.result().getJsonObject(name).getBoolean("ok");
                        }
                        JsonObject health =
                            new JsonObject()
                                .put("status", ok ? "ok" : "degraded")
                                .put("uptime", ProcessFacts.uptime(startedAt))
                                .put(
                                    "process",
                                    new JsonObject()
                                        .put("ok", true)
                                        .put("heap", ProcessFacts.heap()))
                                .put(
                                    "eventBus",
                                    new JsonObject()
                                        .put("ok", true)
                                        .put("roundTripMicros", busMicros))
                                .put("families", byFamily)
                                .put("connections", connections.result());
                        return Future.succeededFuture(ToolResult.structured(health));
                      });
            });
  }

  private static Future<JsonObject> ping(ToolContext ctx, String family) {
    long t0 = System.nanoTime();
    DeliveryOptions options =
        new DeliveryOptions()
            .setSendTimeout(FAMILY_BUDGET_MILLIS)
            .addHeader(CallHeaders.TOOL, CallHeaders.PING);
    return ctx.vertx()
        .eventBus()
        .request(CallHeaders.FAMILY_PREFIX + family, new JsonObject(), options)
        .transform(
            ar ->
                Future.succeededFuture(
                    ar.succeeded()
                        ? new JsonObject()
                            .put("ok", true)
                            .put("millis", (System.nanoTime() - t0) / 1_000_000)
                        : new JsonObject()
                            .put("ok", false)
                            .put("error", "no answer within " + FAMILY_BUDGET_MILLIS + " ms")));
  }
}
