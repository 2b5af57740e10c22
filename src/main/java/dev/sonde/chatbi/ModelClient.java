package dev.sonde.chatbi;

import dev.sonde.config.SondeConfig.LlmConfig;
import dev.sonde.core.Call;
import dev.sonde.core.CancelledException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A chat model over HTTP: OpenAI's {@code /v1/chat/completions} (any server that speaks it) or
 * Ollama's {@code /api/chat}, one answer per call, temperature 0. The API key comes from the
 * environment variable the configuration names and is sent only in the Authorization header.
 */
final class ModelClient {
  /** The model's answer, its token counts and the model that answered. */
  record Answer(String text, int promptTokens, int completionTokens, String model) {}

  /** The model could not be reached or did not answer usably: chat_bi falls back. */
  static final class Unreachable extends Exception {
    Unreachable(String message) {
      super(message);
    }
  }

  private final LlmConfig config;
  private final String apiKey;
  private final HttpClient http;

  ModelClient(LlmConfig config, Map<String, String> environment) {
    this.config = config;
    this.apiKey =
        config.apiKeyEnv().isBlank() ? "" : environment.getOrDefault(config.apiKeyEnv(), "");
    this.http =
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(config.timeoutSeconds())).build();
  }

  String model() {
    return config.model();
  }

  String provider() {
    return config.provider();
  }

  /**
   * The model's answer to one prompt, over non-blocking HTTP; stopping {@code call} abandons the
   * request. An unreachable or unreadable model fails with {@link Unreachable}.
   */
  Future<Answer> ask(String system, String user, Call call) {
    JsonArray messages =
        new JsonArray()
            .add(new JsonObject().put("role", "system").put("content", system))
            .add(new JsonObject().put("role", "user").put("content", user));
    boolean ollama = config.provider().equals("ollama");
    String base = config.baseUrl().replaceAll("/+$", "");
    String url =
        ollama
            ? base + "/api/chat"
            : base + (base.endsWith("/v1") ? "" : "/v1") + "/chat/completions";
    JsonObject body = new JsonObject().put("model", config.model()).put("messages", messages);
    if (ollama) {
      body.put("stream", false).put("options", new JsonObject().put("temperature", 0));
    } else {
      body.put("temperature", 0);
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(config.timeoutSeconds()))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.encode()));
    if (!apiKey.isEmpty()) {
      request.header("Authorization", "Bearer " + apiKey);
    }
    CompletableFuture<HttpResponse<String>> sent;
    try {
      sent = http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(unreachable(base, e));
    }
    Runnable unhook = call.onStop(() -> sent.cancel(true));
    // The answer continues on the asking context, not on the HTTP client's thread.
    Context asking = Vertx.currentContext();
    return (asking == null
            ? Future.fromCompletionStage(sent)
            : Future.fromCompletionStage(sent, asking))
        .andThen(done -> unhook.run())
        .transform(
            done -> {
              if (call.isStopped()) {
                return Future.failedFuture(new CancelledException(call.stopReason()));
              }
              if (done.failed()) {
                return Future.failedFuture(unreachable(base, done.cause()));
              }
              try {
                return Future.succeededFuture(answer(done.result(), ollama));
              } catch (Unreachable e) {
                return Future.failedFuture(e);
              }
            });
  }

  private Unreachable unreachable(String base, Throwable cause) {
    Throwable root =
        cause instanceof CompletionException && cause.getCause() != null ? cause.getCause() : cause;
    return new Unreachable(
        config.provider()
            + " at "
            + base
            + " did not answer ("
            + root.getClass().getSimpleName()
            + ")");
  }

  private Answer answer(HttpResponse<String> response, boolean ollama) throws Unreachable {
    if (response.statusCode() / 100 != 2) {
      throw new Unreachable(config.provider() + " answered HTTP " + response.statusCode());
    }
    try {
      JsonObject json = new JsonObject(response.body());
      if (ollama) {
        return new Answer(
            json.getJsonObject("message").getString("content", ""),
            json.getInteger("prompt_eval_count", 0),
            json.getInteger("eval_count", 0),
            json.getString("model", config.model()));
      }
      JsonObject usage = json.getJsonObject("usage", new JsonObject());
      return new Answer(
          json.getJsonArray("choices")
              .getJsonObject(0)
              .getJsonObject("message")
              .getString("content", ""),
          usage.getInteger("prompt_tokens", 0),
          usage.getInteger("completion_tokens", 0),
          json.getString("model", config.model()));
    } catch (RuntimeException e) {
      throw new Unreachable(config.provider() + " answered in a shape this client does not read");
    }
  }
}
