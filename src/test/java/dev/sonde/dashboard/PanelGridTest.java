package dev.sonde.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.CallerException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Panel placement: the same places as the first-fit scan it replaces, in linear time. */
class PanelGridTest {
  private static final String[] TYPES = {"Text", "Line", "Gauge", "Bar", "Text", "Pie"};

  @Test
  void placesEveryPanelWhereTheFullScanDid() {
    Random random = new Random(16);
    JsonObject board = new JsonObject().put("panels", new JsonArray());
    JsonArray reference = new JsonArray();
    PanelGrid grid = new PanelGrid();
    for (int i = 0; i < 150; i++) {
      JsonObject panel = new JsonObject().put("type", TYPES[random.nextInt(TYPES.length)]);
      JsonObject expected = panel.copy();
      Dashboards.place(board, grid, panel);
      fullScan(reference, expected);
      assertEquals(expected.getJsonObject("grid"), panel.getJsonObject("grid"), "panel " + i);
    }
  }

  @Test
  void aSavedBoardWithHolesIsFilledFirstFitAsBefore() {
    Random random = new Random(7);
    JsonArray panels = new JsonArray();
    for (int i = 0; i < 60; i++) {
      fullScan(panels, new JsonObject().put("type", TYPES[random.nextInt(TYPES.length)]));
    }
    for (int i = 0; i < 20; i++) {
      panels.remove(random.nextInt(panels.size()));
    }
    JsonArray reference = panels.copy();
    JsonObject board = new JsonObject().put("panels", panels);
    for (int i = 0; i < 40; i++) {
      JsonObject panel = new JsonObject().put("type", TYPES[random.nextInt(TYPES.length)]);
      JsonObject expected = panel.copy();
      Dashboards.place(board, PanelGrid.of(board.getJsonArray("panels"), "t.dsh"), panel);
      fullScan(reference, expected);
      assertEquals(expected.getJsonObject("grid"), panel.getJsonObject("grid"), "panel " + i);
    }
  }

  @Test
  void tenThousandPanelsArePlacedInWellUnderASecond() {
    JsonObject board = new JsonObject().put("panels", new JsonArray());
    PanelGrid grid = new PanelGrid();
    // the full scan took 38 s for 400 panels; a linear placement does 10 000 in milliseconds
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          for (int i = 0; i < 10_000; i++) {
            Dashboards.place(board, grid, new JsonObject().put("type", TYPES[i % TYPES.length]));
          }
        });
    JsonObject last = board.getJsonArray("panels").getJsonObject(9_999).getJsonObject("grid");
    assertTrue(last.getInteger("y") < PanelGrid.MAX_ROWS, last.encode());
  }

  @Test
  void aSavedPlaceOutsideTheGridIsRefusedNotAllocated() {
    JsonObject far = new JsonObject().put("x", 0).put("y", 2_000_000_000).put("w", 6).put("h", 8);
    JsonArray panels = new JsonArray().add(new JsonObject().put("grid", far));
    CallerException e = assertThrows(CallerException.class, () -> PanelGrid.of(panels, "big.dsh"));
    assertTrue(e.getMessage().contains("'big.dsh' has a panel outside the grid"), e.getMessage());
  }

  @Test
  void aSavedPlaceThatIsMissingOrNotNumbersIsRefusedTooNotAnInternalError() {
    for (Object grid :
        new Object[] {
          null,
          "0,0",
          new JsonObject().put("x", "1").put("y", 0).put("w", 6).put("h", 8),
          new JsonObject().put("y", 0).put("w", 6).put("h", 8)
        }) {
      JsonArray panels = new JsonArray().add(new JsonObject().put("grid", grid));
      CallerException e =
          assertThrows(CallerException.class, () -> PanelGrid.of(panels, "odd.dsh"));
      assertTrue(e.getMessage().contains("outside the grid"), e.getMessage());
    }
  }

  /** The placement Sonde had before: every row, every column, checked against every panel. */
  private static void fullScan(JsonArray panels, JsonObject panel) {
    String type = panel.getString("type");
    int w = type.equals("Gauge") || type.equals("Text") ? 4 : 6;
    int h = 8;
    for (int y = 0; ; y++) {
      for (int x = 0; x + w <= Dashboards.GRID_COLUMNS; x++) {
        if (free(panels, x, y, w, h)) {
          panel.put("grid", new JsonObject().put("x", x).put("y", y).put("w", w).put("h", h));
          panels.add(panel);
          return;
        }
      }
    }
  }

  private static boolean free(JsonArray panels, int x, int y, int w, int h) {
    for (Object o : panels) {
      JsonObject g = ((JsonObject) o).getJsonObject("grid");
      if (!(x + w <= g.getInteger("x")
          || g.getInteger("x") + g.getInteger("w") <= x
          || y + h <= g.getInteger("y")
          || g.getInteger("y") + g.getInteger("h") <= y)) {
        return false;
      }
    }
    return true;
  }
}
