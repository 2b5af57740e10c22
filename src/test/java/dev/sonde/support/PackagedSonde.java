package dev.sonde.support;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged {@code target/sonde.jar} in its own process, with the test family on the class path
 * (the jar supplies every Sonde class; test-classes adds only the stand-in family).
 */
public final class PackagedSonde implements SondeUnderTest {
  private static final long READY_LIMIT_MINUTES = 5;
  private static final Pattern LISTENING = Pattern.compile("listening on http://[^:]+:(\\d+)/");
  private final Process process;
  private final int port;
  public final List<String> stderr = Collections.synchronizedList(new ArrayList<>());

  public PackagedSonde(String... extraArgs) {
    this(true, extraArgs);
  }

  /** {@code java -jar target/sonde.jar} exactly, without the test family. */
  public static PackagedSonde plainJar(String... args) {
    return new PackagedSonde(false, args);
  }

  /** The packaged jar under test, as an absolute path. */
  public static Path jar() {
    return Path.of(System.getProperty("sonde.jar", "target/sonde.jar")).toAbsolutePath();
  }

  private PackagedSonde(boolean withTestFamily, String... extraArgs) {
    Path jar = jar();
    if (!Files.exists(jar)) {
      throw new IllegalStateException(jar + " is missing: run mvn package first");
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        withTestFamily
            ? new ArrayList<>(
                List.of(
                    java,
                    "-cp",
                    jar + File.pathSeparator + "target/test-classes",
                    "dev.sonde.Sonde",
                    "--port",
                    "0",
                    "--conformance"))
            : new ArrayList<>(List.of(java, "-jar", jar.toString(), "--port", "0"));
    command.addAll(List.of(extraArgs));
    ProcessBuilder builder = new ProcessBuilder(command);
    // several processes run at once: each gets an in-memory DuckDB, not the shared demo file
    builder.environment().put("SONDE_DATABASES_CONNECTIONS_DEMO_DEMO", "false");
    builder.environment().put("SONDE_DATABASES_CONNECTIONS_DEMO_PATH", "");
    // and its own data directory, since a docs index is locked by the process that opens it
    try {
      builder
          .environment()
          .put("SONDE_DATA_DIR", Files.createTempDirectory("sonde-jar-data-").toString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    if (!List.of(extraArgs).contains("--config")) {
      // conf/sonde.yaml indexes the whole DuckDB corpus; the docs tests configure what they need
      builder.environment().put("SONDE_DOCS_ENABLED", "false");
    }
    if (withTestFamily) {
      builder.environment().put("SONDE_FAMILIES_EXTRA", EXTRA_FAMILY);
    }
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    CompletableFuture<Integer> listening = new CompletableFuture<>();
    CompletableFuture<Void> ready = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  stderr.add(line);
                  Matcher m = LISTENING.matcher(line);
                  if (m.find()) {
                    listening.complete(Integer.parseInt(m.group(1)));
                  }
                  if (line.contains("Sonde ready: ")) {
                    ready.complete(null);
                  }
                }
              } catch (IOException e) {
                // process ended
              }
              listening.completeExceptionally(new IllegalStateException("Sonde exited: " + stderr));
              ready.completeExceptionally(new IllegalStateException("Sonde exited: " + stderr));
            },
            "sonde-stderr");
    reader.setDaemon(true);
    reader.start();
    try {
      // ceilings, not schedules: a loaded machine may take minutes to generate the demo data
      port = listening.get(60, TimeUnit.SECONDS);
      ready.get(READY_LIMIT_MINUTES, TimeUnit.MINUTES);
    } catch (Exception e) {
      process.destroyForcibly();
      throw new IllegalStateException("the packaged Sonde did not start: " + stderr, e);
    }
  }

  public Process process() {
    return process;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public McpClient connect(String transport) {
    return switch (transport) {
      case "http" -> new HttpMcpClient(port);
      case "websocket" -> new WebSocketMcpClient(port);
      default -> throw new IllegalArgumentException(transport);
    };
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
