package dev.sonde.support;

import dev.sonde.Sonde;
import dev.sonde.config.ConfigLoader;
import dev.sonde.config.SondeConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Sonde started inside the test JVM on a free port. */
public final class InProcessSonde implements SondeUnderTest {
  private static final long START_LIMIT_MINUTES = 5;
  private final Sonde sonde;

  public InProcessSonde(Map<String, String> overrides) {
    Map<String, String> flags = new HashMap<>();
    flags.put("server.port", "0");
    flags.put("mcp.conformance", "true");
    flags.put("families.extra", EXTRA_FAMILY);
    flags.put("databases.connections.demo.demo", "false");
    flags.put("databases.connections.demo.path", "");
    flags.put("data.dir", freshDataDir());
    flags.putAll(overrides);
    SondeConfig config = ConfigLoader.load(null, Map.of(), flags);
    var starting = Sonde.start(config).toCompletionStage().toCompletableFuture();
    try {
      // a ceiling, not a schedule: a loaded machine may take minutes to generate the demo data
      sonde = starting.get(START_LIMIT_MINUTES, TimeUnit.MINUTES);
      sonde
          .databases()
          .ready()
          .toCompletionStage()
          .toCompletableFuture()
          .get(START_LIMIT_MINUTES, TimeUnit.MINUTES);
    } catch (Exception e) {
      // never left running beside the next test's Sonde, on the same files
      starting.thenAccept(late -> late.close());
      throw new IllegalStateException("Sonde did not start", e);
    }
  }

  /** Each Sonde its own data directory: its docs index is locked by the process that opens it. */
  private static String freshDataDir() {
    try {
      return Files.createTempDirectory("sonde-data-").toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public InProcessSonde() {
    this(Map.of());
  }

  public Sonde sonde() {
    return sonde;
  }

  @Override
  public int port() {
    return sonde.port();
  }

  @Override
  public McpClient connect(String transport) {
    return switch (transport) {
      case "http" -> new HttpMcpClient(port());
      case "websocket" -> new WebSocketMcpClient(port());
      default -> throw new IllegalArgumentException(transport);
    };
  }

  @Override
  public void close() {
    sonde.close().toCompletionStage().toCompletableFuture().join();
  }
}
