package dev.sonde.conformance;

import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;

/** A conformance fixture: a spec and a handler, nothing more (they are not user-facing tools). */
record FixtureTool(ToolSpec spec, Handler handler) implements Tool {
  interface Handler {
    ToolResult run(ToolContext ctx) throws Exception;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) throws Exception {
    return Future.succeededFuture(handler.run(ctx));
  }
}
