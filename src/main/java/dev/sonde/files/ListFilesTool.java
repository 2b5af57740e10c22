package dev.sonde.files;

import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.workspace.Workspace;
import dev.sonde.workspace.Workspaces;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;

/** What a workspace folder holds: folders first, then files, by name. */
final class ListFilesTool extends WorkspaceTool {
  private static final Arg<String> PATH =
      Arg.string("path", "A folder relative to the workspace; omit for the top");

  ListFilesTool(Workspaces workspaces) {
    super(
        workspaces,
        ToolSpec.builder("list_files")
            .title("List files")
            .description(
                "The folders and files directly inside a workspace folder (the workspace itself"
                    + " when path is left out): saved charts (*.chart.json), dashboards and reports,"
                    + " with size and modification time.")
            .input(PATH)
            .output(Schemas.result("path", "string", "entries", "array", "count", "integer"))
            .annotations(ToolAnnotations.READ_ONLY));
  }

  @Override
  JsonObject answer(Workspace workspace, ToolContext ctx) throws IOException {
    String path = ctx.arg(PATH);
    JsonArray entries = new JsonArray();
    for (Workspace.Entry e : workspace.list(path)) {
      JsonObject entry =
          new JsonObject()
              .put("name", e.name())
              .put("path", e.path())
              .put("type", e.folder() ? "folder" : "file")
              .put("modified", e.modified().toString());
      if (!e.folder()) {
        entry.put("size", e.size());
      }
      entries.add(entry);
    }
    return new JsonObject()
        .put("path", path == null || path.isBlank() ? "/" : path)
        .put("entries", entries)
        .put("count", entries.size());
  }
}
