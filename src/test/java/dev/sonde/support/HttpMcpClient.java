package dev.sonde.support;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** MCP over Streamable HTTP with the JDK client: JSON or event-stream answers to each POST. */
public final class HttpMcpClient implements McpClient {
  private final HttpClient http =
      // HTTP/1.1 as the server speaks it: the default would offer an h2c upgrade on every request
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final URI uri;
  private final List<JsonObject> received = Collections.synchronizedList(new ArrayList<>());
  private volatile String sessionId;
  private volatile String protocolVersion;
  private volatile String bearer;

  /** The SSE event ids seen on POST streams, for resumption tests. */
  public final List<String> eventIds = Collections.synchronizedList(new ArrayList<>());

  /** Speaks 2026-07-28: no session, every request states its version, headers mirror bodies. */
  private final boolean modern;

  public HttpMcpClient(int port) {
    this(port, false);
  }

  private HttpMcpClient(int port, boolean modern) {
    this.uri = URI.create("http://127.0.0.1:" + port + "/mcp");
    this.modern = modern;
  }

  /** A client of the modern (stateless) revision. */
  public static HttpMcpClient modern(int port) {
    return new HttpMcpClient(port, true);
  }

  /** Signs every later request in with {@code token} (Authorization: Bearer). */
  public HttpMcpClient bearer(String token) {
    this.bearer = token;
    return this;
  }

  public String sessionId() {
    return sessionId;
  }

  public HttpRequest.Builder post(JsonObject message) {
    if (modern) {
      message = message.copy().put("params", McpClient.modern(message.getJsonObject("params")));
    }
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(message.encode()));
    if (sessionId != null) {
      builder.header("Mcp-Session-Id", sessionId);
    }
    if (bearer != null) {
      builder.header("Authorization", "Bearer " + bearer);
    }
    if (protocolVersion != null) {
      builder.header("MCP-Protocol-Version", protocolVersion);
    }
    if (modern) {
      JsonObject params = message.getJsonObject("params");
      builder
          .header("MCP-Protocol-Version", McpClient.MODERN)
          .header("Mcp-Method", message.getString("method"));
      String method = message.getString("method");
      Object name =
          params.getValue(
              method.equals("resources/read")
                  ? "uri"
                  : method.startsWith("tasks/") ? "taskId" : "name");
      if (name instanceof String n) {
        builder.header("Mcp-Name", n);
      }
      // as a client mirrors x-mcp-header: Sonde's one annotated argument is connection
      if (method.equals("tools/call")
          && params.getValue("arguments") instanceof JsonObject arguments
          && arguments.getValue("connection") instanceof String connection) {
        builder.header("Mcp-Param-Connection", connection);
      }
    }
    return builder;
  }

  public HttpResponse<String> raw(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Override
  public CompletableFuture<JsonObject> send(long id, String method, JsonObject params) {
    JsonObject message = McpClient.message(id, method, params);
    return http.sendAsync(post(message).build(), HttpResponse.BodyHandlers.ofInputStream())
        .thenApplyAsync(
            response -> {
              response.headers().firstValue("Mcp-Session-Id").ifPresent(s -> sessionId = s);
              JsonObject answer = read(response, id, m -> {});
              if ("initialize".equals(method) && answer.containsKey("result")) {
                protocolVersion = answer.getJsonObject("result").getString("protocolVersion");
              }
              return answer;
            });
  }

  /** Reads a POST answer; {@code onEvent} sees each SSE message as it arrives. */
  public JsonObject read(
      HttpResponse<InputStream> response, Object id, Consumer<JsonObject> onEvent) {
    String type = response.headers().firstValue("Content-Type").orElse("");
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      if (!type.startsWith("text/event-stream")) {
        String body = lines.lines().reduce("", String::concat);
        return body.isEmpty()
            ? new JsonObject().put("httpStatus", response.statusCode())
            : new JsonObject(body).put("httpStatus", response.statusCode());
      }
      return readEvents(lines, id, onEvent);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Reads SSE events until the response to {@code id}; null when the stream ends first. */
  public JsonObject readEvents(BufferedReader lines, Object id, Consumer<JsonObject> onEvent)
      throws IOException {
    StringBuilder data = new StringBuilder();
    String line;
    while ((line = lines.readLine()) != null) {
      if (line.startsWith("id: ")) {
        eventIds.add(line.substring(4));
      } else if (line.startsWith("data: ")) {
        data.append(line.substring(6));
      } else if (line.isEmpty() && data.length() > 0) {
        JsonObject message = new JsonObject(data.toString());
        data.setLength(0);
        if (message.getValue("method") == null
            && String.valueOf(id).equals(String.valueOf(message.getValue("id")))) {
          return message;
        }
        received.add(message);
        onEvent.accept(message);
      }
    }
    return null;
  }

  @Override
  public void notify(String method, JsonObject params) {
    JsonObject message = McpClient.message(null, method, params);
    HttpResponse<String> response = raw(post(message).build());
    if (response.statusCode() != 202) {
      throw new AssertionError(
          "notification answered " + response.statusCode() + ": " + response.body());
    }
  }

  @Override
  public List<JsonObject> received() {
    return received;
  }

  @Override
  public void close() {
    if (sessionId != null) {
      HttpRequest.Builder delete =
          HttpRequest.newBuilder(uri).header("Mcp-Session-Id", sessionId).DELETE();
      if (bearer != null) {
        delete.header("Authorization", "Bearer " + bearer);
      }
      raw(delete.build());
    }
  }

  /** Opens the session's standalone GET stream and reads it in the background. */
  public GetStream openGetStream() {
    return new GetStream();
  }

  /** The session's GET stream: the messages it has carried, and a way to wait for one. */
  public final class GetStream implements AutoCloseable {
    private final List<JsonObject> seen = new CopyOnWriteArrayList<>();
    private final HttpResponse<InputStream> response;
    private final CompletableFuture<Void> reading;

    private GetStream() {
      try {
        // HTTP/1.1: the JDK client's h2c upgrade would hold a long-lived GET
        response =
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                    HttpRequest.newBuilder(uri)
                        .header("Accept", "text/event-stream")
                        .header("Mcp-Session-Id", sessionId)
                        .GET()
                        .build(),
                    HttpResponse.BodyHandlers.ofInputStream());
      } catch (IOException | InterruptedException e) {
        throw new AssertionError(e);
      }
      reading =
          CompletableFuture.runAsync(
              () -> {
                try {
                  readEvents(
                      new BufferedReader(
                          new InputStreamReader(response.body(), StandardCharsets.UTF_8)),
                      "never",
                      seen::add);
                } catch (IOException e) {
                  // closed by close()
                }
              });
    }

    public int status() {
      return response.statusCode();
    }

    /** Every message carried so far, in order. */
    public List<JsonObject> seen() {
      return seen;
    }

    /** The first message with {@code method}, waiting for it; fails after {@code within}. */
    public JsonObject await(String method, Duration within) throws InterruptedException {
      long end = System.nanoTime() + within.toNanos();
      while (true) {
        for (JsonObject message : seen) {
          if (method.equals(message.getString("method"))) {
            return message;
          }
        }
        if (System.nanoTime() > end) {
          throw new AssertionError(
              "no " + method + " on the GET stream within " + within + ": " + seen);
        }
        Thread.sleep(20);
      }
    }

    /** Closes the stream and waits for its reader to stop. */
    @Override
    public void close() throws Exception {
      response.body().close();
      reading.get(5, TimeUnit.SECONDS);
    }
  }

  public HttpClient http() {
    return http;
  }

  /** A plain GET of {@code path} (e.g. a report link) on the server this client talks to. */
  public HttpResponse<String> get(String path) {
    return raw(HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(30)).build());
  }

  public URI uri() {
    return uri;
  }
}
