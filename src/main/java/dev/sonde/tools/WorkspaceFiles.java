package dev.sonde.tools;

import dev.sonde.config.SondeConfig.ServerConfig;
import dev.sonde.core.CallerException;
import dev.sonde.workspace.Workspace;
import dev.sonde.workspace.Workspaces;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The files tools save in an account's workspace (reports, live charts, dashboards) and the links
 * the browser opens them at.
 */
public final class WorkspaceFiles {
  private static final DateTimeFormatter REPORT_STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS");

  private final Workspaces workspaces;
  private final ServerConfig server;

  public WorkspaceFiles(Workspaces workspaces, ServerConfig server) {
    this.workspaces = workspaces;
    this.server = server;
  }

  /** The account's workspace. */
  public Workspace of(String account) {
    return workspaces.of(account);
  }

  /**
   * Saves {@code text} as {@code path} in the account's workspace, atomically; a path the workspace
   * refuses is the caller's error.
   */
  public void saveText(String account, String path, String text) {
    inWorkspace(() -> workspaces.of(account).write(path, text.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Saves a new report in the account's {@code reports/} folder under a name no other report
   * shares: {@code words} say what it is (cut to file-name characters), then {@code savedAt} (the
   * time the report shows) to the millisecond in {@code zone} and a random suffix keep reports
   * saved in one instant apart. It never replaces a file. The workspace path.
   */
  public String saveNewReport(
      String account, List<String> words, Instant savedAt, ZoneId zone, String html) {
    StringBuilder name = new StringBuilder("reports/");
    for (String word : words) {
      String cut = word.replaceAll("[^A-Za-z0-9._-]", "_");
      name.append(cut, 0, Math.min(cut.length(), 60)).append('-');
    }
    name.append(REPORT_STAMP.withZone(zone).format(savedAt))
        .append('-')
        .append(String.format("%06x", ThreadLocalRandom.current().nextInt(1 << 24)))
        .append(".html");
    String path = name.toString();
    inWorkspace(
        () -> {
          if (!workspaces.of(account).createNew(path, html.getBytes(StandardCharsets.UTF_8))) {
            throw new CallerException(
                path + " already exists and was kept; call again to save anew");
          }
        });
    return path;
  }

  private interface WorkspaceWrite {
    void run() throws IOException;
  }

  /** A refused path is the caller's error; a failing disk is not. */
  private static void inWorkspace(WorkspaceWrite write) {
    try {
      write.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Where the browser opens a saved file of {@code account} (a report, a forecast's page): its
   * path, the link on this server, which names the account so a teammate's link opens the same
   * file, and a full URL when the port is set.
   */
  public JsonObject fileLink(String account, String path) {
    return webLink(path, "/workspace/" + account + "/" + path);
  }

  /**
   * Where the dashboards viewer shows {@code account}'s dashboard or live chart at {@code path}.
   */
  public JsonObject viewerLink(String account, String path) {
    return webLink(path, "/dashboards.html#" + account + "/" + path);
  }

  private JsonObject webLink(String path, String relativeUrl) {
    JsonObject out = new JsonObject().put("path", path).put("link", relativeUrl);
    if (server.port() > 0) {
      out.put("url", "http://" + server.host() + ":" + server.port() + relativeUrl);
    }
    return out;
  }
}
