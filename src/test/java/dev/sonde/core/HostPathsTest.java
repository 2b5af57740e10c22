package dev.sonde.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** Folders are replaced where they stand as folders, and only there. */
class HostPathsTest {
  final HostPaths paths = HostPaths.of("/srv/sonde-data");
  final String home = System.getProperty("user.home");

  @Test
  void aFolderAndWhatIsUnderItArePlaceholders() {
    assertEquals("<data>/demo.duckdb", paths.redact("/srv/sonde-data/demo.duckdb"));
    assertEquals("file \"<data>\".", paths.redact("file \"/srv/sonde-data\"."));
    assertEquals("<home>/.duckdb/extensions", paths.redact(home + "/.duckdb/extensions"));
  }

  @Test
  void aLongerNameOrAFolderElsewhereIsLeftAlone() {
    assertEquals("/srv/sonde-data2/x", paths.redact("/srv/sonde-data2/x"));
    assertEquals("/backup/srv/sonde-data/x", paths.redact("/backup/srv/sonde-data/x"));
  }

  @Test
  void jsonIsCopiedOnlyWhenSomethingChanged() {
    JsonObject untouched = new JsonObject().put("rows", new JsonArray().add("/elsewhere"));
    assertSame(untouched, paths.redactJson(untouched));
    JsonObject named = new JsonObject().put("rows", new JsonArray().add("/srv/sonde-data/f"));
    assertEquals(
        "<data>/f", ((JsonObject) paths.redactJson(named)).getJsonArray("rows").getValue(0));
    assertEquals("/srv/sonde-data/f", named.getJsonArray("rows").getValue(0));
  }
}
