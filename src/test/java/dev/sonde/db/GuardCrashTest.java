package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 17: attacks whose effect is the end of the whole Sonde process (a native abort in an
 * engine), so they cannot run in the test JVM. Each runs against a Sonde in a process of its own
 * (started by {@link #main}), through the real MCP tool call; the effect checked is that the
 * process is still alive and still answers. A DuckDB connection that ran the attack must also leave
 * no file behind in the folder the attack names.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GuardCrashTest {
  record Attack(String name, String sql) {}

  static List<Attack> attacks() {
    return List.of(
        new Attack(
            "enable_logging to a file (a table function a SELECT may call)",
            "SELECT * FROM enable_logging(level = 'trace', storage = 'file', storage_path = '{dir}')"),
        new Attack(
            "enable_logging to a file with a CSV storage",
            "SELECT * FROM enable_logging(storage = 'file', storage_path = '{dir}/x.csv')"),
        new Attack(
            "CALL enable_logging to a file",
            "CALL enable_logging(storage = 'file', storage_path = '{dir}')"));
  }

  static final List<String> CONNECTIONS = List.of("duck", "duckengine");

  @TestFactory
  Stream<DynamicNode> attacksDoNotEndTheProcess() {
    List<DynamicNode> tests = new ArrayList<>();
    for (Attack attack : attacks()) {
      for (String connection : CONNECTIONS) {
        for (GuardEffectsTest.Tool tool : GuardEffectsTest.Tool.values()) {
          tests.add(
              DynamicTest.dynamicTest(
                  attack.name() + " on " + connection + " via " + tool,
                  () -> run(attack, connection, tool)));
        }
      }
    }
    return tests.stream();
  }

  private Process child;
  private Path folder;
  private Path markers;
  private ToolCalls calls;
  private final List<String> output = new ArrayList<>();

  /** A child Sonde, started afresh only when the last attack ended it. */
  private void ensureChild() throws Exception {
    if (child != null && child.isAlive()) {
      return;
    }
    folder = Files.createTempDirectory("sonde-crash-");
    markers = Files.createDirectories(folder.resolve("markers"));
    for (String name : CONNECTIONS) {
      try (Connection duck =
              DriverManager.getConnection("jdbc:duckdb:" + folder.resolve(name + ".duckdb"));
          Statement st = duck.createStatement()) {
        st.execute("CREATE TABLE orders (channel VARCHAR, n INTEGER)");
        st.execute("INSERT INTO orders VALUES ('web', 1), ('store', 2)");
      }
    }
    child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                GuardCrashTest.class.getName(),
                folder.toString())
            .redirectErrorStream(true)
            .start();
    synchronized (output) {
      output.clear();
    }
    BufferedReader lines =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    int port = -1;
    String line;
    while ((line = lines.readLine()) != null) {
      synchronized (output) {
        output.add(line);
      }
      if (line.startsWith("SONDE-PORT ")) {
        port = Integer.parseInt(line.substring("SONDE-PORT ".length()).trim());
        break;
      }
    }
    assertTrue(port > 0, "the child Sonde did not start: " + String.join("\n", output));
    Thread drain =
        new Thread(
            () -> {
              try {
                String more;
                while ((more = lines.readLine()) != null) {
                  synchronized (output) {
                    output.add(more);
                  }
                }
              } catch (java.io.IOException e) {
                // the process ended
              }
            });
    drain.setDaemon(true);
    drain.start();
    HttpMcpClient client = new HttpMcpClient(port);
    client.initialize("2025-11-25");
    calls = new ToolCalls(client);
  }

  @AfterAll
  void stopChild() throws Exception {
    if (child != null && child.isAlive()) {
      child.getOutputStream().close();
      if (!child.waitFor(10, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
  }

  private void run(Attack attack, String connection, GuardEffectsTest.Tool tool) throws Exception {
    ensureChild();
    String sql = attack.sql().replace("{dir}", markers.toString());
    String outcome;
    try {
      JsonObject result = calls.call(tool.name, tool.args(connection, sql));
      outcome = result.getBoolean("isError", false) ? "refused" : "answered";
    } catch (AssertionError e) {
      outcome = "no answer: " + e.getMessage();
    }
    boolean stillAnswers;
    try {
      JsonObject benign =
          calls.call("execute_query", GuardEffectsTest.Tool.EXECUTE.args(connection, "SELECT 1"));
      stillAnswers = !benign.getBoolean("isError", false);
    } catch (AssertionError e) {
      stillAnswers = false;
    }
    if (!child.isAlive() || !stillAnswers) {
      child.waitFor(5, TimeUnit.SECONDS);
      String tail;
      synchronized (output) {
        tail = String.join("\n", output.subList(Math.max(0, output.size() - 5), output.size()));
      }
      String state = child.isAlive() ? "alive but not answering" : "exit " + child.exitValue();
      child.destroyForcibly();
      fail(
          "ESCAPE: attack '"
              + attack.name()
              + "' on "
              + connection
              + " via "
              + tool
              + " ended the whole Sonde process ("
              + state
              + "; the call: "
              + outcome
              + "): "
              + tail);
    }
    try (Stream<Path> left = Files.list(markers)) {
      List<String> files = left.map(p -> p.getFileName().toString()).toList();
      assertTrue(
          files.isEmpty(),
          "ESCAPE: attack '"
              + attack.name()
              + "' on "
              + connection
              + " via "
              + tool
              + " wrote files "
              + files);
    }
  }

  /** The child: a Sonde with DuckDB connections on the folder's files, until stdin closes. */
  public static void main(String[] args) throws Exception {
    Path folder = Path.of(args[0]);
    InProcessSonde sonde =
        new InProcessSonde(
            Map.of(
                "databases.defaultConnection", "duck",
                "docs.enabled", "false",
                "databases.connections.duck.type", "duckdb",
                "databases.connections.duck.path", folder.resolve("duck.duckdb").toString(),
                "databases.connections.duckengine.type", "duckdb",
                "databases.connections.duckengine.path",
                    folder.resolve("duckengine.duckdb").toString(),
                "databases.connections.duckengine.guard", "engine-only"));
    System.out.println("SONDE-PORT " + sonde.port());
    System.out.flush();
    while (System.in.read() >= 0) {
      // wait for the parent to close stdin
    }
    sonde.close();
    System.exit(0);
  }
}
