package dev.sonde.system;

import dev.sonde.jobs.JobRegistry;
import dev.sonde.tools.CallHeaders;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * What the server is doing: tools per family, transports and sessions, calls per account, running
 * jobs, uptime, heap.
 */
final class DebugMcpStatusTool implements Tool {
  private static final ToolSpec SPEC =
      ToolSpec.builder("debug_mcp_status")
          .title("MCP server status")
          .description(
              "Diagnostics: tool count and names per family, transports and open sessions, tool"
                  + " calls per account since start, running jobs, uptime and heap. For"
                  + " troubleshooting, not for data questions.")
          .output(Schemas.result("toolCount", "integer", "families", "object"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  private final JobRegistry jobs;
  private final Instant startedAt;

  DebugMcpStatusTool(JobRegistry jobs, Instant startedAt) {
    this.jobs = jobs;
    this.startedAt = startedAt;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    return ctx.vertx()
        .eventBus()
        .<JsonObject>request(CallHeaders.MCP_STATUS_ADDRESS, new JsonObject())
        .map(
            reply -> {
              JsonObject status = reply.body().copy();
              JsonArray running = new JsonArray();
              jobs.list().stream()
                  .filter(j -> !j.status().isFinal())
                  .forEach(j -> running.add(j.summary()));
              status
                  .put("runningJobs", running)
                  .put("uptime", ProcessFacts.uptime(startedAt))
                  .put("heap", ProcessFacts.heap());
              return ToolResult.structured(status);
            });
  }
}
