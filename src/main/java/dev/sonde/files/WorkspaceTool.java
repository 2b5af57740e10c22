package dev.sonde.files;

import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import dev.sonde.workspace.Workspace;
import dev.sonde.workspace.Workspaces;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.io.IOException;

/** A tool over the calling account's workspace, run on a worker since it touches the disk. */
abstract class WorkspaceTool implements Tool {
  private final Workspaces workspaces;
  private final ToolSpec spec;

  WorkspaceTool(Workspaces workspaces, ToolSpec.Builder spec) {
    this.workspaces = workspaces;
    this.spec = spec.mode(ExecutionMode.WORKER).build();
  }

  @Override
  public final ToolSpec spec() {
    return spec;
  }

  @Override
  public final Future<ToolResult> call(ToolContext ctx) throws IOException {
    return Future.succeededFuture(ToolResult.structured(answer(workspaces.of(ctx.account()), ctx)));
  }

  abstract JsonObject answer(Workspace workspace, ToolContext ctx) throws IOException;
}
