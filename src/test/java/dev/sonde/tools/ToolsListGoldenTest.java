package dev.sonde.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sonde.Families;
import dev.sonde.config.SondeConfig;
import dev.sonde.docs.DocsLibrary;
import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code tools/list} of a default server, kept as a file so every schema change shows up in
 * review. After a deliberate change: {@code mvn test -Dtest=ToolsListGoldenTest
 * -Dsonde.updateGolden=true}.
 */
class ToolsListGoldenTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden/tools-list.json");

  @Test
  void theDefaultToolListMatchesTheGoldenFile() throws IOException {
    JsonArray listing = new JsonArray();
    defaultFamilies().forEach(family -> family.specs().forEach(s -> listing.add(s.toJson())));
    String actual = listing.encodePrettily() + "\n";
    if (Boolean.getBoolean("sonde.updateGolden")) {
      Files.createDirectories(GOLDEN.getParent());
      Files.writeString(GOLDEN, actual);
    }
    assertEquals(
        Files.readString(GOLDEN),
        actual,
        "tools/list changed; if that is intended, rerun with -Dsonde.updateGolden=true and commit the file");
  }

  /** The families of a default server, built without starting it. */
  static List<FamilyVerticle> defaultFamilies() {
    FamilyServices services = new FamilyServices(SondeConfig.defaults(), null, null, null, null);
    return Families.of(
        services,
        new Families.Engines(
            Instant.now(),
            null,
            null,
            null,
            null,
            null,
            null,
            new DocsLibrary(SondeConfig.defaults(), () -> "")));
  }
}
