package dev.sonde.system;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.TreeMap;

/** Facts about this process: versions read once from the jars' metadata, and the heap. */
final class ProcessFacts {
  static final String SONDE = sonde();
  static final String VERTX = resource("/META-INF/vertx/vertx-version.txt");
  static final JsonObject ENGINES = engines();

  private ProcessFacts() {}

  /** Time since start, as an ISO-8601 duration. */
  static String uptime(Instant startedAt) {
    return Duration.between(startedAt, Instant.now()).toString();
  }

  /** Heap use in MiB, for the health and status tools. */
  static JsonObject heap() {
    Runtime runtime = Runtime.getRuntime();
    return new JsonObject()
        .put("usedMb", (runtime.totalMemory() - runtime.freeMemory()) >> 20)
        .put("committedMb", runtime.totalMemory() >> 20)
        .put("maxMb", runtime.maxMemory() >> 20);
  }

  private static String sonde() {
    String version = ProcessFacts.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }

  /** The embedded engines' versions, written into the jar at build time from pom.xml. */
  private static JsonObject engines() {
    Properties properties = new Properties();
    try (InputStream in = ProcessFacts.class.getResourceAsStream("/sonde/engines.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      return new JsonObject();
    }
    JsonObject engines = new JsonObject();
    new TreeMap<>(properties).forEach((name, version) -> engines.put((String) name, version));
    return engines;
  }

  private static String resource(String path) {
    try (InputStream in = ProcessFacts.class.getResourceAsStream(path)) {
      return in == null ? "unknown" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
