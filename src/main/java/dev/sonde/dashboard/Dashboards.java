package dev.sonde.dashboard;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.Times;
import dev.sonde.tools.ChartDocuments;
import dev.sonde.tools.FamilyAsks;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * Dashboards in an account's workspace: {@code *.dsh} JSON files of panels drawn from saved charts
 * or from inline panels (a table and its tags). The format is versioned ({@code format:
 * sonde.dashboard, version: 1}); panels have a UUID, a title, a type, a data source, a grid place
 * and options. Every panel with data is compiled when it is added, so a dashboard never holds a
 * panel that cannot draw. Work that grows with the panels runs on worker threads, and every change
 * of a saved dashboard is one {@link Workspace#update}, so concurrent edits all land.
 */
public final class Dashboards {
  public static final String FORMAT = "sonde.dashboard";
  public static final int VERSION = 1;
  public static final int GRID_COLUMNS = 12;
  static final List<String> TYPES =
      List.of("Line", "Bar", "Scatter", "Pie", "Gauge", "Text", "Geomap", "Candlestick", "Chart");
  private static final DateTimeFormatter SUFFIX =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  private static final int PANEL_HEIGHT = 8;

  /** Forecast fits kept for the viewer, and how long when a dashboard has no refresh interval. */
  private static final int KEPT_FITS = 64;

  private static final long DEFAULT_KEEP_MILLIS = 60_000;
  private static final int LISTING_DEPTH = 4;

  private record KeptFit(long until, PanelData data) {}

  private final Map<String, KeptFit> keptFits =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, KeptFit> eldest) {
          return size() > KEPT_FITS;
        }
      };

  private final WorkerExecutor pool;
  private final FamilyAsks asks;
  private final int maxPanels;

  /**
   * Dashboards whose file work runs on {@code pool}, the dashboard family's own, and whose panels'
   * data is asked of the time-series and forecast families.
   */
  public Dashboards(WorkerExecutor pool, FamilyAsks asks, int maxPanels) {
    this.pool = pool;
    this.asks = asks;
    this.maxPanels = maxPanels;
  }

  /** {@code name}, with {@code .dsh} added when missing; ASCII, as the reference requires. */
  public static String filename(String name) {
    if (name == null || name.isBlank()) {
      throw new CallerException("filename is required, e.g. plant/overview.dsh");
    }
    String f = name.trim().endsWith(".dsh") ? name.trim() : name.trim() + ".dsh";
    if (!f.matches("[A-Za-z0-9_./-]+")) {
      throw new CallerException(
          "filename '"
              + name
              + "' must be ASCII letters, digits, '.', '_', '-' or '/', e.g. plant/overview.dsh");
    }
    return f;
  }

  /** A panel's data: the chart's ECharts option, its series, notices, or the error it met. */
  public record PanelData(
      JsonObject option,
      JsonArray series,
      JsonObject summary,
      JsonArray notices,
      JsonObject range) {}

  /**
   * Creates a dashboard; an existing file is kept and the new one saved beside it with a time
   * suffix, unless {@code overwrite}.
   */
  public Future<JsonObject> create(
      Workspace ws,
      String name,
      String title,
      JsonArray panels,
      String start,
      String end,
      String refresh,
      boolean overwrite,
      String connection,
      ZoneId zone,
      Call call) {
    String file = filename(name);
    refuseBeyondLimit(panels.size());
    JsonObject board =
        new JsonObject()
            .put("format", FORMAT)
            .put("version", VERSION)
            .put("title", title == null || title.isBlank() ? file : title)
            .put("timeRange", new JsonObject().put("start", start).put("end", end))
            .put("refresh", refresh(refresh))
            .put("timezone", zone.getId())
            .put("panels", new JsonArray())
            .put("created", Instant.now().toString());
    List<Future<JsonObject>> built = new ArrayList<>();
    for (Object p : panels) {
      built.add(panel(ws, asPanel(p), connection, zone, board.getJsonObject("timeRange"), call));
    }
    return Future.all(built)
        .compose(
            all ->
                blocking(
                    () -> {
                      List<JsonObject> made = all.list();
                      PanelGrid grid = new PanelGrid();
                      made.forEach(p -> place(board, grid, p));
                      if (start == null && end == null) {
                        fitTimeRange(board, made, zone);
                      }
                      String target = file;
                      if (overwrite) {
                        ws.write(target, encode(board));
                      } else if (!ws.createNew(target, encode(board))) {
                        board.put("kept_existing", file);
                        target =
                            file.substring(0, file.length() - 4)
                                + "-"
                                + SUFFIX.format(Instant.now())
                                + ".dsh";
                        if (!ws.createNew(target, encode(board))) {
                          throw new CallerException(
                              target + " exists too; call again in a second or pick a new name");
                        }
                      }
                      return board.copy().put("path", target);
                    }));
  }

  /** A caller's error when a dashboard would hold more panels than configured. */
  private void refuseBeyondLimit(int panels) {
    if (panels > maxPanels) {
      throw new CallerException(
          "a dashboard holds at most "
              + maxPanels
              + " panels and this one would have "
              + panels
              + "; split the charts over several dashboards (the limit is dashboards.maxPanels in"
              + " Sonde's configuration)");
    }
  }

  public Future<JsonObject> read(Workspace ws, String name) {
    String file = filename(name);
    return blocking(() -> load(ws, file));
  }

  /** Compiles the panel against the dashboard as read, then places it in the one as saved now. */
  public Future<JsonObject> addPanel(
      Workspace ws, String name, JsonObject spec, String connection, ZoneId zone, Call call) {
    return read(ws, name)
        .compose(
            board -> {
              // a full board is refused before its chart is compiled; the check under the lock
              // below is the one that holds against parallel adds
              refuseBeyondLimit(board.getJsonArray("panels").size() + 1);
              return panel(ws, spec, connection, zone, board.getJsonObject("timeRange"), call);
            })
        .compose(
            p ->
                edit(
                    ws,
                    name,
                    board -> {
                      refuseBeyondLimit(board.getJsonArray("panels").size() + 1);
                      place(board, PanelGrid.of(board.getJsonArray("panels"), filename(name)), p);
                      return p;
                    }));
  }

  /** Retitles the panel named by id or by title. */
  public Future<JsonObject> retitle(Workspace ws, String name, String panel, String title) {
    if (title == null || title.isBlank()) {
      return Future.failedFuture(new CallerException("new_title is required"));
    }
    return edit(ws, name, board -> find(board, panel).put("title", title));
  }

  public Future<JsonObject> removePanel(Workspace ws, String name, String panel) {
    return edit(
        ws,
        name,
        board -> {
          JsonObject p = find(board, panel);
          board.getJsonArray("panels").remove(p);
          return p;
        });
  }

  public Future<JsonObject> updateTimeRange(
      Workspace ws, String name, String start, String end, String refresh) {
    return edit(
        ws,
        name,
        board -> {
          JsonObject range = board.getJsonObject("timeRange");
          if (start != null) {
            range.put("start", start);
          }
          if (end != null) {
            range.put("end", end);
          }
          if (refresh != null) {
            board.put("refresh", refresh(refresh));
          }
          return board;
        });
  }

  /**
   * Changes a dashboard as saved now, under its file's lock, so no concurrent edit is lost; answers
   * what {@code change} returns.
   */
  private Future<JsonObject> edit(
      Workspace ws, String name, java.util.function.UnaryOperator<JsonObject> change) {
    String file = filename(name);
    return blocking(
        () ->
            ws.update(
                file,
                current -> {
                  JsonObject board = board(file, current);
                  JsonObject answer = change.apply(board);
                  return new Workspace.Revision<>(encode(board), answer);
                }));
  }

  public Future<Void> delete(Workspace ws, String name) {
    String file = filename(name);
    return blocking(
        () -> {
          load(ws, file);
          ws.delete(file);
          return null;
        });
  }

  /**
   * The data of one panel over the dashboard's period, or over {@code start}/{@code end} when the
   * viewer's time picker sets them; stopping {@code call} stops its statements and fits.
   */
  public Future<PanelData> panelData(
      Workspace ws, JsonObject panel, JsonObject timeRange, ZoneId zone, Call call) {
    return panelData(ws, panel, timeRange, zone, 0, call);
  }

  /**
   * What the viewer draws for panel {@code id} of dashboard {@code name}: over {@code start}/{@code
   * end} and in zone {@code tz} when its time picker sets them, else the saved ones. A forecast
   * panel's fit is kept for the dashboard's refresh interval (a minute when it has none), so its
   * auto-refreshes and reloads do not refit it each time.
   */
  public Future<PanelData> viewPanel(
      Workspace ws, String name, String id, String start, String end, String tz, Call call) {
    return read(ws, name)
        .compose(
            board -> {
              JsonObject panel =
                  board.getJsonArray("panels").stream()
                      .map(JsonObject.class::cast)
                      .filter(p -> id.equals(p.getString("id")))
                      .findFirst()
                      .orElseThrow(() -> new CallerException("no panel " + id));
              return panelData(
                  ws,
                  panel,
                  picked(start, end, board.getJsonObject("timeRange")),
                  zone(tz, board),
                  keepMillis(board.getString("refresh")),
                  call);
            });
  }

  /** What the viewer draws for the saved chart {@code path}; see {@link #viewPanel}. */
  public Future<PanelData> viewChart(
      Workspace ws, String path, String start, String end, String tz, Call call) {
    return chartFile(ws, path)
        .compose(
            chart ->
                panelData(
                    ws,
                    new JsonObject()
                        .put("id", path)
                        .put("type", "Chart")
                        .put("source", new JsonObject().put("chart_path", path)),
                    picked(start, end, chart.getJsonObject("spec").getJsonObject("timeRange")),
                    zone(tz, chart),
                    DEFAULT_KEEP_MILLIS,
                    call));
  }

  /** The dashboards and saved charts of the workspace, a few folders deep. */
  public Future<JsonObject> listing(Workspace ws) {
    return blocking(
        () -> {
          JsonArray boards = new JsonArray();
          JsonArray charts = new JsonArray();
          walk(ws, null, 0, boards, charts);
          return new JsonObject().put("dashboards", boards).put("charts", charts);
        });
  }

  private static void walk(
      Workspace ws, String folder, int depth, JsonArray boards, JsonArray charts)
      throws IOException {
    for (Workspace.Entry e : ws.list(folder)) {
      if (e.folder() && depth < LISTING_DEPTH) {
        walk(ws, e.path(), depth + 1, boards, charts);
      } else if (e.name().endsWith(".dsh")) {
        boards.add(new JsonObject().put("path", e.path()).put("modified", e.modified().toString()));
      } else if (e.name().endsWith(".chart.json")) {
        charts.add(new JsonObject().put("path", e.path()).put("modified", e.modified().toString()));
      }
    }
  }

  /** The time picker's period when it sent one, else the saved one. */
  private static JsonObject picked(String start, String end, JsonObject saved) {
    return start == null && end == null
        ? saved
        : new JsonObject().put("start", start).put("end", end);
  }

  private static ZoneId zone(String tz, JsonObject saved) {
    String name = tz != null && !tz.isBlank() ? tz : saved.getString("timezone", "UTC");
    try {
      return ZoneId.of(name);
    } catch (DateTimeException e) {
      throw new CallerException("unknown timezone '" + name + "'");
    }
  }

  /** A refresh interval (10s, 1m, 1h) in milliseconds; the default when it is off. */
  static long keepMillis(String refresh) {
    if (refresh == null || !refresh.matches("\\d+[smh]")) {
      return DEFAULT_KEEP_MILLIS;
    }
    long n = Long.parseLong(refresh.substring(0, refresh.length() - 1));
    long unit =
        switch (refresh.charAt(refresh.length() - 1)) {
          case 's' -> 1000L;
          case 'm' -> 60_000L;
          default -> 3_600_000L;
        };
    return n * unit;
  }

  private Future<PanelData> panelData(
      Workspace ws,
      JsonObject panel,
      JsonObject timeRange,
      ZoneId zone,
      long keepMillis,
      Call call) {
    JsonObject source = panel.getJsonObject("source", new JsonObject());
    if (source.containsKey("text")) {
      return Future.succeededFuture(
          new PanelData(
              new JsonObject(),
              new JsonArray(),
              new JsonObject().put("series", new JsonArray()),
              new JsonArray(),
              null));
    }
    Future<JsonObject> chart =
        source.containsKey("chart_path")
            ? chartFile(ws, source.getString("chart_path"))
            : Future.succeededFuture(
                new JsonObject()
                    .put("spec", source.getJsonObject("spec"))
                    .put("connection", source.getString("connection")));
    return chart.compose(
        c -> {
          JsonObject spec = c.getJsonObject("spec").copy();
          if (timeRange != null
              && (timeRange.getValue("start") != null || timeRange.getValue("end") != null)) {
            spec.put("timeRange", timeRange.copy());
          }
          if (ChartDocuments.FORECAST_KIND.equals(c.getString("kind"))) {
            String key = ws.root() + "\n" + c.encode() + "\n" + spec.encode() + "\n" + zone;
            PanelData kept = kept(key);
            if (kept != null) {
              return Future.succeededFuture(kept);
            }
            return asks.forecastPanel(c.getString("connection"), spec, zone, call)
                .map(
                    panelData ->
                        new PanelData(
                            panelData.getJsonObject("option"),
                            panelData.getJsonArray("series"),
                            panelData.getJsonObject("summary"),
                            panelData.getJsonArray("notices"),
                            panelData.getJsonObject("range")))
                .onSuccess(data -> keep(key, data, keepMillis));
          }
          return asks.chartData(c.getString("connection"), spec, zone, null, call)
              .map(
                  compiled -> {
                    JsonObject document = compiled.getJsonObject("document");
                    JsonObject plan = document.getJsonObject("plan");
                    return new PanelData(
                        document.getJsonObject("option"),
                        compiled.getJsonArray("series"),
                        compiled.getJsonObject("summary"),
                        plan.getJsonArray("notices"),
                        plan.getJsonObject("range"));
                  });
        });
  }

  private PanelData kept(String key) {
    synchronized (keptFits) {
      KeptFit fit = keptFits.get(key);
      return fit != null && fit.until() > System.currentTimeMillis() ? fit.data() : null;
    }
  }

  private void keep(String key, PanelData data, long keepMillis) {
    if (keepMillis > 0) {
      synchronized (keptFits) {
        keptFits.put(key, new KeptFit(System.currentTimeMillis() + keepMillis, data));
      }
    }
  }

  /** A saved chart's document, checked to be one. */
  public Future<JsonObject> chartFile(Workspace ws, String path) {
    return blocking(
        () -> {
          JsonObject chart = parse(ws, path);
          if (!ChartDocuments.FORMAT.equals(chart.getString("format"))) {
            throw new CallerException(
                "'"
                    + path
                    + "' is not a saved chart (compile_chart_from_spec with filename makes one)");
          }
          return chart;
        });
  }

  private static JsonObject asPanel(Object p) {
    if (p instanceof JsonObject o) {
      return o;
    }
    if (p instanceof Map<?, ?> m) {
      @SuppressWarnings("unchecked")
      Map<String, Object> map = (Map<String, Object>) m;
      return new JsonObject(map);
    }
    throw new CallerException(
        "each chart is an object: {title, chart_path} or {title, type, table, tag}");
  }

  /** Builds a panel from a tool's chart entry, compiling it once so it is known to draw. */
  private Future<JsonObject> panel(
      Workspace ws, JsonObject entry, String connection, ZoneId zone, JsonObject range, Call call) {
    String path = entry.getString("chart_path", entry.getString("tql_path"));
    String type = typeOf(entry.getString("type", path != null ? "Chart" : "Line"));
    JsonObject panel =
        new JsonObject()
            .put("id", UUID.randomUUID().toString())
            .put(
                "title",
                entry.getString("title", path != null ? path : entry.getString("tag", type)))
            .put("type", type)
            .put("options", entry.getJsonObject("options", new JsonObject()));
    if (type.equals("Text")) {
      return Future.succeededFuture(
          panel.put("source", new JsonObject().put("text", entry.getString("text", ""))));
    }
    JsonObject source;
    if (path != null) {
      source = new JsonObject().put("chart_path", path);
    } else {
      source =
          new JsonObject()
              .put("spec", inlineSpec(entry, type))
              .put("connection", entry.getString("connection", connection));
    }
    panel.put("source", source);
    return panelData(ws, panel, range, zone, call)
        .map(
            data ->
                panel.put(
                    "checked",
                    new JsonObject()
                        .put(
                            "points",
                            data.summary().getJsonArray("series").stream()
                                .mapToInt(s -> ((JsonObject) s).getInteger("points"))
                                .sum())
                        .put("range", data.range())));
  }

  /** The chart spec an inline panel stands for: its type picks the kind and the drawing. */
  private static JsonObject inlineSpec(JsonObject entry, String type) {
    String table = entry.getString("table");
    if (table == null || table.isBlank()) {
      throw new CallerException(
          "an inline panel needs table and tag (or chart_path for a saved chart)");
    }
    JsonArray tags = new JsonArray();
    Object tag = entry.getValue("tag", entry.getValue("tags"));
    if (tag instanceof JsonArray a) {
      tags = a.copy();
    } else if (tag != null) {
      tags.add(String.valueOf(tag));
    }
    if (tags.isEmpty()) {
      throw new CallerException(
          "inline panel '"
              + entry.getString("title", type)
              + "' needs tag (a tag of "
              + table
              + ")");
    }
    JsonObject spec = new JsonObject().put("table", table);
    switch (type) {
      case "Candlestick" -> spec.put("kind", "ohlc").put("tag", tags.getString(0));
      case "Geomap" -> spec.put("kind", "geomap").put("tags", tags);
      case "Pie" -> spec.put("kind", "tags").put("tags", tags);
      default ->
          spec.put("kind", tags.size() > 1 ? "tags" : "metrics")
              .put(tags.size() > 1 ? "tags" : "tag", tags.size() > 1 ? tags : tags.getString(0));
    }
    if (entry.getValue("rollup") != null) {
      spec.put("rollup", entry.getValue("rollup"));
    }
    if (entry.getJsonArray("metrics") != null) {
      spec.put("metrics", entry.getJsonArray("metrics"));
    }
    spec.put(
        "output",
        new JsonObject()
            .put("chartType", type.equals("Bar") ? "bar" : "line")
            .put("title", entry.getString("title", tags.getString(0))));
    return spec;
  }

  private static String typeOf(String type) {
    for (String t : TYPES) {
      if (t.equalsIgnoreCase(type)) {
        return t;
      }
    }
    throw new CallerException("panel type '" + type + "' is not one of " + TYPES);
  }

  /**
   * Puts a panel in the first free place of {@code grid} (the board's panels), 6 wide (4 for a
   * gauge or a text) and 8 high, never overlapping.
   */
  static void place(JsonObject board, PanelGrid grid, JsonObject panel) {
    int w =
        panel.getString("type").equals("Gauge") || panel.getString("type").equals("Text") ? 4 : 6;
    panel.put("grid", grid.place(w, PANEL_HEIGHT));
    board.getJsonArray("panels").add(panel);
  }

  /**
   * Without a period, each panel keeps the one its own chart fits to its data (a year of daily gold
   * prices and an hour of vibration do not share a period); the dashboard records their union.
   */
  private static void fitTimeRange(JsonObject board, List<JsonObject> panels, ZoneId zone) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (JsonObject p : panels) {
      JsonObject checked = p.getJsonObject("checked");
      if (checked != null && checked.getJsonObject("range") != null) {
        first = Math.min(first, checked.getJsonObject("range").getLong("start_ms"));
        last = Math.max(last, checked.getJsonObject("range").getLong("end_ms"));
      }
    }
    JsonObject range = board.getJsonObject("timeRange");
    range.put("note", "each panel shows the period its chart fits to its data");
    if (first <= last) {
      range.put("fitted", Times.range(first, last, zone));
    }
  }

  private static String refresh(String refresh) {
    if (refresh == null || refresh.isBlank() || refresh.equalsIgnoreCase("off")) {
      return null;
    }
    if (!refresh.matches("\\d+(s|m|h)")) {
      throw new CallerException("refresh '" + refresh + "' must look like 10s, 1m or 1h (or off)");
    }
    return refresh.toLowerCase(Locale.ROOT);
  }

  private static JsonObject find(JsonObject board, String panel) {
    if (panel == null || panel.isBlank()) {
      throw new CallerException("name the panel by its id or its title");
    }
    List<JsonObject> byTitle = new ArrayList<>();
    for (Object o : board.getJsonArray("panels")) {
      JsonObject p = (JsonObject) o;
      if (p.getString("id").equals(panel)) {
        return p;
      }
      if (p.getString("title").equalsIgnoreCase(panel)) {
        byTitle.add(p);
      }
    }
    if (byTitle.size() == 1) {
      return byTitle.get(0);
    }
    throw new CallerException(
        byTitle.isEmpty()
            ? "no panel '" + panel + "'; panels: " + titles(board)
            : "several panels are titled '"
                + panel
                + "'; name one by id: "
                + byTitle.stream().map(p -> p.getString("id")).toList());
  }

  private static List<String> titles(JsonObject board) {
    return board.getJsonArray("panels").stream()
        .map(o -> ((JsonObject) o).getString("title"))
        .toList();
  }

  private static JsonObject load(Workspace ws, String file) throws IOException {
    return board(file, ws.read(file));
  }

  /** A saved dashboard from its file's bytes, checked to be one this Sonde can read. */
  private static JsonObject board(String file, byte[] content) {
    JsonObject board = json(file, content);
    if (!FORMAT.equals(board.getString("format"))) {
      throw new CallerException("'" + file + "' is not a Sonde dashboard");
    }
    if (board.getInteger("version", 0) > VERSION) {
      throw new CallerException(
          "'"
              + file
              + "' was written by a newer Sonde (dashboard format "
              + board.getInteger("version")
              + ")");
    }
    return board;
  }

  private static JsonObject parse(Workspace ws, String file) throws IOException {
    return json(file, ws.read(file));
  }

  private static JsonObject json(String file, byte[] content) {
    try {
      return new JsonObject(new String(content, StandardCharsets.UTF_8));
    } catch (DecodeException e) {
      throw new CallerException("'" + file + "' is not valid JSON");
    }
  }

  /** A dashboard's file content, stamped with the time it is saved. */
  private static byte[] encode(JsonObject board) {
    board.put("updated", Instant.now().toString());
    return board.encodePrettily().getBytes(StandardCharsets.UTF_8);
  }

  private <T> Future<T> blocking(Callable<T> work) {
    return pool.executeBlocking(work, false);
  }
}
