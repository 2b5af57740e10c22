package dev.sonde.support;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.concurrent.atomic.AtomicLong;

/** tools/call through a test client: the structured answer of a success, the text of a refusal. */
public final class ToolCalls {
  private static final AtomicLong IDS = new AtomicLong(1_000_000);
  private final McpClient client;

  public ToolCalls(McpClient client) {
    this.client = client;
  }

  /** Tool calls over a new Streamable HTTP session with the Sonde on {@code port}. */
  public static ToolCalls over(int port) {
    HttpMcpClient client = new HttpMcpClient(port);
    client.initialize("2025-11-25");
    return new ToolCalls(client);
  }

  public JsonObject call(String tool, JsonObject args) {
    return client
        .request(
            IDS.incrementAndGet(),
            "tools/call",
            new JsonObject().put("name", tool).put("arguments", args))
        .getJsonObject("result");
  }

  public JsonObject ok(String tool, JsonObject args) {
    JsonObject result = call(tool, args);
    assertFalse(result.getBoolean("isError", false), result.encode());
    return result.getJsonObject("structuredContent");
  }

  public String refused(String tool, JsonObject args) {
    JsonObject result = call(tool, args);
    assertTrue(result.getBoolean("isError", false), "expected a refusal: " + result.encode());
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }
}
