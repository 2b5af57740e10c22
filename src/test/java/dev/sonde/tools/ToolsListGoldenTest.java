package dev.sonde.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sonde.config.SondeConfig;
import dev.sonde.docs.DocsLibrary;
import dev.sonde.tools.chatbi.ChatBiFamilyVerticle;
import dev.sonde.tools.dashboard.DashboardFamilyVerticle;
import dev.sonde.tools.docs.DocsFamilyVerticle;
import dev.sonde.tools.files.FilesFamilyVerticle;
import dev.sonde.tools.forecast.ForecastFamilyVerticle;
import dev.sonde.tools.query.QueryFamilyVerticle;
import dev.sonde.tools.report.ReportFamilyVerticle;
import dev.sonde.tools.schema.SchemaFamilyVerticle;
import dev.sonde.tools.system.SystemFamilyVerticle;
import dev.sonde.tools.timeseries.TimeSeriesFamilyVerticle;
import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
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
    FamilyServices services = new FamilyServices(SondeConfig.defaults(), null, null, null, null);
    JsonArray listing = new JsonArray();
    new SystemFamilyVerticle(services, Instant.now()).specs().forEach(s -> listing.add(s.toJson()));
    new SchemaFamilyVerticle(services).specs().forEach(s -> listing.add(s.toJson()));
    new QueryFamilyVerticle(services).specs().forEach(s -> listing.add(s.toJson()));
    new TimeSeriesFamilyVerticle(services, null).specs().forEach(s -> listing.add(s.toJson()));
    new DashboardFamilyVerticle(services, null).specs().forEach(s -> listing.add(s.toJson()));
    new ForecastFamilyVerticle(services, null).specs().forEach(s -> listing.add(s.toJson()));
    new ReportFamilyVerticle(services, null).specs().forEach(s -> listing.add(s.toJson()));
    new FilesFamilyVerticle(services).specs().forEach(s -> listing.add(s.toJson()));
    new ChatBiFamilyVerticle(services, null).specs().forEach(s -> listing.add(s.toJson()));
    new DocsFamilyVerticle(services, new DocsLibrary(SondeConfig.defaults(), () -> ""))
        .specs()
        .forEach(s -> listing.add(s.toJson()));
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
}
