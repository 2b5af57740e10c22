package dev.sonde.support;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** MCP over the stdin/stdout of a Sonde process; every stdout line must be JSON-RPC. */
public final class StdioMcpClient implements McpClient {
  private final Process process;
  private final OutputStream stdin;
  private final Map<String, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();
  private final List<JsonObject> received = Collections.synchronizedList(new ArrayList<>());

  /** Lines on stdout that were not JSON-RPC: must stay empty. */
  public final List<String> strayLines = Collections.synchronizedList(new ArrayList<>());

  public StdioMcpClient(Process process) {
    this.process = process;
    this.stdin = process.getOutputStream();
    Thread reader = new Thread(this::readLoop, "stdio-client-reader");
    reader.setDaemon(true);
    reader.start();
  }

  public Process process() {
    return process;
  }

  private void readLoop() {
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        JsonObject message;
        try {
          message = new JsonObject(line);
        } catch (RuntimeException e) {
          strayLines.add(line);
          continue;
        }
        McpClient.route(message, pending, received);
      }
    } catch (IOException e) {
      // process ended
    }
  }

  private synchronized void write(JsonObject message) {
    try {
      stdin.write((message.encode() + "\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
    } catch (IOException e) {
      throw new AssertionError("stdin closed", e);
    }
  }

  @Override
  public CompletableFuture<JsonObject> send(long id, String method, JsonObject params) {
    CompletableFuture<JsonObject> answer = new CompletableFuture<>();
    pending.put(String.valueOf(id), answer);
    JsonObject message = McpClient.message(id, method, params);
    write(message);
    return answer;
  }

  @Override
  public void notify(String method, JsonObject params) {
    JsonObject message = McpClient.message(null, method, params);
    write(message);
  }

  @Override
  public List<JsonObject> received() {
    return received;
  }

  /** Closes stdin; the server must then exit by itself. */
  @Override
  public void close() {
    try {
      stdin.close();
    } catch (IOException e) {
      // already closed
    }
  }
}
