package dev.sonde.files;

import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.workspace.Workspace;
import dev.sonde.workspace.Workspaces;
import io.vertx.core.json.JsonObject;
import java.io.IOException;

/** Removes one file, or an empty folder, from the workspace. */
final class DeleteFileTool extends WorkspaceTool {
  private static final Arg<String> FILENAME =
      Arg.string("filename", "The file, relative to the workspace, e.g. GOLD/close.chart.json")
          .required();

  DeleteFileTool(Workspaces workspaces) {
    super(
        workspaces,
        ToolSpec.builder("delete_file")
            .title("Delete file")
            .description(
                "Deletes one file (a chart, a dashboard, a report) or an empty folder from your"
                    + " workspace. Folders with files in them are refused; nothing outside the"
                    + " workspace can be named.")
            .input(FILENAME)
            .output(Schemas.result("deleted", "string"))
            .annotations(new ToolAnnotations(false, true, true, false)));
  }

  @Override
  JsonObject answer(Workspace workspace, ToolContext ctx) throws IOException {
    String filename = ctx.arg(FILENAME);
    workspace.delete(filename);
    return new JsonObject().put("deleted", workspace.relative(workspace.resolve(filename)));
  }
}
