package dev.sonde.dashboard;

import dev.sonde.core.CallerException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Which cells of a dashboard's 12-column grid its panels cover, one bit mask per row, and the first
 * free place for a new panel: scanning rows from the top and columns from the left, the first
 * position where the panel overlaps nothing. Placing n panels costs about n times the rows they
 * fill, not n³ as checking every position against every panel did.
 */
final class PanelGrid {
  /** Far beyond what Sonde places (8 rows for each of at most 10 000 panels). */
  static final int MAX_ROWS = 100_000;

  private int[] rows = new int[64];
  private int height;

  /**
   * Per panel size, the first row that may still hold one: rows above it had no free place when it
   * was last asked, and cells are only ever taken, so they never will.
   */
  private final Map<Integer, Integer> firstCandidateRow = new HashMap<>();

  /** The grid covered by a dashboard's panels, refusing a saved place Sonde could not have made. */
  static PanelGrid of(JsonArray panels, String file) {
    PanelGrid grid = new PanelGrid();
    for (Object o : panels) {
      Object saved = o instanceof JsonObject panel ? panel.getValue("grid") : null;
      JsonObject g = saved instanceof JsonObject place ? place : new JsonObject();
      int x = cell(g, "x");
      int y = cell(g, "y");
      int w = cell(g, "w");
      int h = cell(g, "h");
      if (x < 0 || w < 1 || x + w > Dashboards.GRID_COLUMNS || y < 0 || h < 1 || y + h > MAX_ROWS) {
        throw new CallerException(
            "'" + file + "' has a panel outside the grid (" + g.encode() + "); fix or remove it");
      }
      grid.take(x, y, w, h);
    }
    return grid;
  }

  /** A whole-number grid field, or -1 (refused as outside the grid) when missing or not one. */
  private static int cell(JsonObject grid, String field) {
    return grid.getValue(field) instanceof Integer n ? n : -1;
  }

  /** The first free place of a {@code w} by {@code h} panel, now taken by it. */
  JsonObject place(int w, int h) {
    int key = w * MAX_ROWS + h;
    int span = (1 << w) - 1;
    for (int y = firstCandidateRow.getOrDefault(key, 0); ; y++) {
      int covered = 0;
      for (int r = y; r < y + h && r < height; r++) {
        covered |= rows[r];
      }
      for (int x = 0; x + w <= Dashboards.GRID_COLUMNS; x++) {
        if ((covered & (span << x)) == 0) {
          firstCandidateRow.put(key, y);
          take(x, y, w, h);
          return new JsonObject().put("x", x).put("y", y).put("w", w).put("h", h);
        }
      }
    }
  }

  private void take(int x, int y, int w, int h) {
    if (y + h > rows.length) {
      rows = Arrays.copyOf(rows, Math.max(rows.length * 2, y + h));
    }
    int span = ((1 << w) - 1) << x;
    for (int r = y; r < y + h; r++) {
      rows[r] |= span;
    }
    height = Math.max(height, y + h);
  }
}
