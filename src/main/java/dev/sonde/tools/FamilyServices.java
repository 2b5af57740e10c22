package dev.sonde.tools;

import dev.sonde.config.SondeConfig;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.jobs.JobRegistry;
import dev.sonde.timeseries.TagTables;
import dev.sonde.workspace.WorkspaceException;
import dev.sonde.workspace.Workspaces;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * What every family is given at construction: configuration, the node's jobs, its databases and the
 * accounts' workspaces.
 */
public record FamilyServices(
    SondeConfig config,
    JobRegistry jobs,
    DatabaseRegistry databases,
    Workspaces workspaces,
    TagTables tagTables) {

  /**
   * Saves {@code text} as {@code path} in the account's workspace, atomically; a path the workspace
   * refuses is the caller's error.
   */
  public void saveText(String account, String path, String text) {
    try {
      workspaces.of(account).write(path, text.getBytes(StandardCharsets.UTF_8));
    } catch (WorkspaceException e) {
      throw new ToolException(e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Where the browser shows a workspace file: its path, the link on this server, and a full URL
   * when the port is set.
   */
  public JsonObject webLink(String path, String relativeUrl) {
    JsonObject out = new JsonObject().put("path", path).put("link", relativeUrl);
    int port = config.server().port();
    if (port > 0) {
      out.put("url", "http://" + config.server().host() + ":" + port + relativeUrl);
    }
    return out;
  }
}
