package dev.sonde.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.McpClient;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * SEP-2243 over Streamable HTTP in 2026-07-28: the {@code connection} argument is mirrored into
 * {@code Mcp-Param-Connection}, so a gateway can route by database; a call whose header is missing,
 * different, or badly encoded is refused before it runs. Proved by a write on the writable H2
 * connection: refused calls leave no row, the accepted one does.
 */
class ParamHeadersTest {
  private static final String INSERT = "INSERT INTO NOTES (ID, BODY) VALUES (7243, 'routed')";
  private static final String BASE64_SCRATCH =
      Base64.getEncoder().encodeToString("scratch".getBytes());
  static long ids = 1;

  /** A modern execute_write on scratch, with exactly the headers {@code headers} leaves. */
  static HttpResponse<String> write(
      String sql, boolean onScratch, Consumer<Map<String, String>> headers) {
    return write(sql, onScratch, headers, new String[0]);
  }

  /** The same, with {@code extra} name, value pairs sent as well (repeats included). */
  static HttpResponse<String> write(
      String sql, boolean onScratch, Consumer<Map<String, String>> headers, String... extra) {
    JsonObject arguments = new JsonObject().put("sql", sql);
    if (onScratch) {
      arguments.put("connection", "scratch");
    }
    JsonObject message =
        McpClient.message(
            ids++,
            "tools/call",
            McpClient.modern(
                new JsonObject().put("name", "execute_write").put("arguments", arguments)));
    Map<String, String> sent = new LinkedHashMap<>();
    sent.put("MCP-Protocol-Version", McpClient.MODERN);
    sent.put("Mcp-Method", "tools/call");
    sent.put("Mcp-Name", "execute_write");
    sent.put("Mcp-Param-Connection", "scratch");
    headers.accept(sent);
    HttpMcpClient client = DatabaseSonde.client();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(client.uri())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(message.encode()));
    sent.forEach(request::header);
    for (int i = 0; i < extra.length; i += 2) {
      request.header(extra[i], extra[i + 1]);
    }
    return client.raw(request.build());
  }

  static int rows() {
    return DatabaseSonde.call(
            "execute_query",
            new JsonObject()
                .put("connection", "scratch")
                .put("sql", "SELECT count(*) FROM NOTES WHERE ID = 7243"))
        .getJsonObject("structuredContent")
        .getJsonArray("rows")
        .getJsonArray(0)
        .getInteger(0);
  }

  static void refused(String why, HttpResponse<String> response) {
    assertEquals(400, response.statusCode(), why + ": " + response.body());
    JsonObject error = new JsonObject(response.body()).getJsonObject("error");
    assertEquals(-32020, error.getInteger("code"), why);
    assertTrue(
        error.getString("message").toLowerCase().replace('_', '-').contains("mcp-param-connection"),
        error.encode());
    assertEquals(0, rows(), why + " wrote a row");
  }

  @Test
  void everyConnectionArgumentIsMirroredAndTheListingSaysSo() {
    HttpMcpClient client = HttpMcpClient.modern(DatabaseSonde.get().port());
    JsonObject listed =
        client.request(ids++, "tools/list", new JsonObject()).getJsonObject("result");
    int annotated = 0;
    for (Object tool : listed.getJsonArray("tools")) {
      JsonObject properties =
          ((JsonObject) tool).getJsonObject("inputSchema").getJsonObject("properties");
      if (properties.containsKey("connection")) {
        assertEquals(
            "Connection",
            properties.getJsonObject("connection").getString("x-mcp-header"),
            ((JsonObject) tool).getString("name"));
        annotated++;
      }
    }
    assertTrue(annotated > 10, "tools with a connection argument: " + annotated);
  }

  @Test
  void aCallWhoseHeaderDoesNotRepeatItsConnectionDoesNotRun() {
    assertEquals(0, rows());
    refused("another connection", write(INSERT, true, h -> h.put("Mcp-Param-Connection", "demo")));
    refused("no header", write(INSERT, true, h -> h.remove("Mcp-Param-Connection")));
    refused("a header but no argument", write(INSERT, false, h -> {}));
    refused(
        "unpadded base64",
        write(
            INSERT,
            true,
            h ->
                h.put(
                    "Mcp-Param-Connection", "=?base64?" + BASE64_SCRATCH.replace("=", "") + "?=")));
    refused(
        "not base64",
        write(INSERT, true, h -> h.put("Mcp-Param-Connection", "=?base64?c2Ny!!!YXRjaA==?=")));
    refused(
        "not UTF-8",
        write(
            INSERT,
            true,
            h ->
                h.put(
                    "Mcp-Param-Connection",
                    "=?base64?"
                        + Base64.getEncoder().encodeToString(new byte[] {(byte) 0xff})
                        + "?=")));
    refused(
        "unused bits set",
        write(INSERT, true, h -> h.put("Mcp-Param-Connection", "=?base64?c2NyYXRjaB==?=")));
    refused(
        "the header twice, a proxy may read the second",
        write(INSERT, true, h -> {}, "Mcp-Param-Connection", "demo"));
    refused(
        "a look-alike a CGI-style gateway reads as the header",
        write(INSERT, true, h -> {}, "Mcp_Param_Connection", "demo"));
    refused(
        "the sentinel without its end is a literal",
        write(INSERT, true, h -> h.put("Mcp-Param-Connection", "=?base64?" + BASE64_SCRATCH)));

    // the encoded form of the right name is the right name, and header names ignore case
    HttpResponse<String> encoded =
        write(
            INSERT,
            true,
            h -> {
              h.remove("Mcp-Param-Connection");
              h.put("mcp-param-connection", "=?base64?" + BASE64_SCRATCH + "?=");
            });
    assertEquals(200, encoded.statusCode(), encoded.body());
    assertFalse(
        new JsonObject(encoded.body()).getJsonObject("result").getBoolean("isError", false),
        encoded.body());
    assertEquals(1, rows());
    HttpResponse<String> removed = write("DELETE FROM NOTES WHERE ID = 7243", true, h -> {});
    assertEquals(200, removed.statusCode(), removed.body());
    assertEquals(0, rows());
  }

  @Test
  void aCallWithoutAConnectionNeedsNoHeader() {
    HttpMcpClient client = HttpMcpClient.modern(DatabaseSonde.get().port());
    JsonObject result =
        client
            .request(
                ids++,
                "tools/call",
                new JsonObject()
                    .put("name", "execute_query")
                    .put("arguments", new JsonObject().put("sql", "SELECT 42")))
            .getJsonObject("result");
    assertFalse(result.getBoolean("isError", false), result.encode());
  }
}
