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
import java.nio.file.Files;
import java.nio.file.Path;

/** A folder in the workspace, with its parents; asking again for one that exists is fine. */
final class CreateFolderTool extends WorkspaceTool {
  private static final Arg<String> FOLDER =
      Arg.string("folder_name", "The folder, relative to the workspace").required();

  CreateFolderTool(Workspaces workspaces) {
    super(
        workspaces,
        ToolSpec.builder("create_folder")
            .title("Create folder")
            .description(
                "Creates a folder (and its parents) in your workspace, e.g. GOLD or reports/2026."
                    + " Paths are relative to the workspace; '..' and absolute paths are refused.")
            .input(FOLDER)
            .output(Schemas.result("folder", "string", "created", "boolean"))
            .annotations(new ToolAnnotations(false, false, true, false)));
  }

  @Override
  JsonObject answer(Workspace workspace, ToolContext ctx) throws IOException {
    String name = ctx.arg(FOLDER);
    boolean existed = Files.isDirectory(workspace.resolve(name));
    Path folder = workspace.createFolder(name);
    return new JsonObject().put("folder", workspace.relative(folder)).put("created", !existed);
  }
}
