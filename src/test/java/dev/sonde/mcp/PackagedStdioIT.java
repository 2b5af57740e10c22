package dev.sonde.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.McpClient;
import dev.sonde.support.PackagedSonde;
import dev.sonde.support.SondeUnderTest;
import dev.sonde.support.StdioMcpClient;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract over stdio against the packaged jar: one process per client, since the process is
 * the session. Its HTTP side (--port 0) serves the jobs API the contract reads.
 */
class PackagedStdioIT extends McpContractTest {
  private final List<PackagedSonde> processes = new ArrayList<>();
  private PackagedSonde current;

  @Override
  protected SondeUnderTest sonde() {
    return current;
  }

  @Override
  protected McpClient connect() {
    current = new PackagedSonde("--stdio");
    processes.add(current);
    return new StdioMcpClient(current.process());
  }

  @AfterEach
  void stop() {
    processes.forEach(PackagedSonde::close);
  }

  @Test
  void stdoutCarriesOnlyProtocolAndTheProcessExitsWhenStdinCloses() throws Exception {
    StdioMcpClient client = (StdioMcpClient) ready();
    call(client, 1, "test_slow_job", new JsonObject().put("steps", 2).put("stepMillis", 0), "t");
    call(client, 2, "health_check", new JsonObject(), null);
    client.close();
    assertTrue(
        current.process().waitFor(20, TimeUnit.SECONDS), "Sonde must exit when stdin closes");
    assertEquals(0, current.process().exitValue());
    assertEquals(List.of(), client.strayLines);
    assertTrue(
        current.stderr.stream().anyMatch(l -> l.contains("listening on")), "logs go to stderr");
  }
}
