package dev.sonde.bench;

import dev.sonde.support.McpClient;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop load over MCP WebSocket: each connection initializes, then calls {@code get_version}
 * again as soon as the previous answer arrives. Prints calls/s and latency percentiles. usage:
 * WebSocketLoad PORT CONNECTIONS SECONDS
 */
public final class WebSocketLoad {
  private static final int MAX_SAMPLES = 4_000_000;

  private WebSocketLoad() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    int connections = Integer.parseInt(args[1]);
    int seconds = Integer.parseInt(args[2]);
    Vertx vertx = Vertx.vertx();
    WebSocketClient client =
        vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(connections));
    long[] samples = new long[MAX_SAMPLES];
    AtomicLong count = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    long warmupEnd = System.nanoTime() + Long.getLong("warmupSeconds", 5) * 1_000_000_000L;
    long end = warmupEnd + seconds * 1_000_000_000L;
    CountDownLatch done = new CountDownLatch(connections);
    String call =
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("id", 1)
            .put("method", "tools/call")
            .put(
                "params",
                new JsonObject().put("name", "get_version").put("arguments", new JsonObject()))
            .encode();
    String init =
        McpClient.message(0L, "initialize", McpClient.initializeParams("2025-11-25", "bench"))
            .encode();
    for (int c = 0; c < connections; c++) {
      WebSocketConnectOptions options =
          new WebSocketConnectOptions()
              .setHost("127.0.0.1")
              .setPort(port)
              .setURI("/mcp/ws")
              .addSubProtocol("mcp");
      client
          .connect(options)
          .onSuccess(ws -> drive(ws, init, call, samples, count, errors, warmupEnd, end, done))
          .onFailure(
              e -> {
                System.err.println("connect failed: " + e.getMessage());
                done.countDown();
              });
    }
    done.await();
    int n = (int) Math.min(count.get(), MAX_SAMPLES);
    long[] sorted = Arrays.copyOf(samples, n);
    Arrays.sort(sorted);
    System.out.printf(
        "calls/s %.0f p50_ms %.3f p99_ms %.3f errors %d%n",
        count.get() / (double) seconds, pct(sorted, 0.50), pct(sorted, 0.99), errors.get());
    vertx.close();
  }

  private static double pct(long[] sorted, double p) {
    return sorted.length == 0
        ? Double.NaN
        : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1e6;
  }

  private static void drive(
      WebSocket ws,
      String init,
      String call,
      long[] samples,
      AtomicLong count,
      AtomicLong errors,
      long warmupEnd,
      long end,
      CountDownLatch done) {
    long[] sent = {0};
    boolean[] initialized = {false};
    ws.textMessageHandler(
        text -> {
          long now = System.nanoTime();
          if (!text.contains("\"result\"")) {
            errors.incrementAndGet();
          }
          if (initialized[0] && now > warmupEnd) {
            long i = count.getAndIncrement();
            if (i < MAX_SAMPLES) {
              samples[(int) i] = now - sent[0];
            }
          }
          initialized[0] = true;
          if (now >= end) {
            ws.close();
            done.countDown();
            return;
          }
          sent[0] = System.nanoTime();
          ws.writeTextMessage(call);
        });
    ws.writeTextMessage(init);
  }
}
