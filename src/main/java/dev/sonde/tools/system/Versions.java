package dev.sonde.tools.system;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Versions of Sonde and what it runs on, read once from the jars' own metadata. */
final class Versions {
  static final String SONDE = sonde();
  static final String VERTX = resource("/META-INF/vertx/vertx-version.txt");

  private Versions() {}

  private static String sonde() {
    String version = Versions.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }

  private static String resource(String path) {
    try (InputStream in = Versions.class.getResourceAsStream(path)) {
      return in == null ? "unknown" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
