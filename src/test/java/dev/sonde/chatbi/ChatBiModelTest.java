package dev.sonde.chatbi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.sonde.config.SondeConfig.ChatBiConfig;
import dev.sonde.config.SondeConfig.LlmConfig;
import dev.sonde.support.DatabaseSonde;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * chat_bi's model path against a small local server speaking the OpenAI and Ollama wire formats: a
 * first answer with SQL off the domain goes back with the reason and the retry is used; an
 * unreachable model falls back to the embedded generator; the key never reaches the trace.
 */
class ChatBiModelTest {
  static final String GOOD =
      "SELECT stores.city, SUM(inventory.quantity) AS stock FROM inventory"
          + " JOIN stores ON inventory.store_id = stores.store_id GROUP BY stores.city";
  static final String OFF_DOMAIN = "SELECT name FROM information_schema.tables";

  HttpServer server;
  final List<JsonObject> requests = Collections.synchronizedList(new ArrayList<>());
  final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());

  @TempDir Path data;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  /** A model that answers with {@code answers} in turn, in the given provider's format. */
  int model(String provider, List<String> answers) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    String path = provider.equals("ollama") ? "/api/chat" : "/v1/chat/completions";
    server.createContext(
        path,
        exchange -> {
          JsonObject body =
              new JsonObject(
                  new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          requests.add(body);
          authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
          String sql = answers.get(Math.min(requests.size() - 1, answers.size() - 1));
          String content = "Here it is:\n```sql\n" + sql + "\n```";
          JsonObject reply =
              provider.equals("ollama")
                  ? new JsonObject()
                      .put("model", "llama-test")
                      .put(
                          "message",
                          new JsonObject().put("role", "assistant").put("content", content))
                      .put("prompt_eval_count", 321)
                      .put("eval_count", 45)
                  : new JsonObject()
                      .put("model", "gpt-test")
                      .put(
                          "choices",
                          new JsonArray()
                              .add(
                                  new JsonObject()
                                      .put(
                                          "message",
                                          new JsonObject()
                                              .put("role", "assistant")
                                              .put("content", content))))
                      .put(
                          "usage",
                          new JsonObject().put("prompt_tokens", 321).put("completion_tokens", 45));
          byte[] bytes = reply.encode().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, bytes.length);
          exchange.getResponseBody().write(bytes);
          exchange.close();
        });
    server.start();
    return server.getAddress().getPort();
  }

  JsonObject ask(String provider, int port, String question) throws Exception {
    ChatBiConfig config =
        new ChatBiConfig(
            "conf/ontology",
            200,
            5,
            7,
            1000,
            false,
            new LlmConfig(
                provider, "http://127.0.0.1:" + port, "test-model", "SONDE_TEST_KEY", 5, 2));
    var sonde = DatabaseSonde.get().sonde();
    ChatBi chatBi =
        new ChatBi(
            sonde.vertx(),
            sonde.databases(),
            config,
            data,
            Map.of("SONDE_TEST_KEY", "sk-secret-123"));
    return Evaluation.await(
        chatBi.ask(question, "retail", ZoneOffset.UTC, Evaluation.CALL, (step, millis) -> {}));
  }

  static List<String> steps(JsonObject envelope) {
    return envelope.getJsonObject("bizresult").getJsonArray("trace").stream()
        .map(
            s ->
                ((JsonObject) s).getString("step") + (((JsonObject) s).getBoolean("ok") ? "" : "!"))
        .toList();
  }

  String traceText() throws IOException {
    try (Stream<Path> files = Files.walk(data.resolve("chatbi/trace"))) {
      StringBuilder all = new StringBuilder();
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        all.append(Files.readString(f));
      }
      return all.toString();
    }
  }

  @Test
  void anOpenAiAnswerOffTheDomainIsSentBackAndTheRetryIsUsed() throws Exception {
    int port = model("openai", List.of(OFF_DOMAIN, GOOD));
    JsonObject envelope = ask("openai", port, "Which cities hold the most stock?");
    assertTrue(envelope.getBoolean("success"), envelope.encode());
    assertEquals(
        List.of(
            "retrieve",
            "prompt",
            "llm",
            "extract",
            "validate!",
            "llm",
            "extract",
            "validate",
            "execute"),
        steps(envelope));
    assertEquals(GOOD, envelope.getJsonObject("bizresult").getString("sql"));
    assertEquals(
        12, envelope.getJsonObject("bizresult").getJsonObject("data").getInteger("rowCount"));
    JsonObject llm = envelope.getJsonObject("bizresult").getJsonArray("trace").getJsonObject(2);
    assertEquals("gpt-test", llm.getJsonObject("data").getString("model"));
    assertEquals(321, llm.getJsonObject("data").getInteger("prompt_tokens"));
    assertEquals(45, llm.getJsonObject("data").getInteger("completion_tokens"));

    assertEquals(2, requests.size());
    assertEquals(List.of("Bearer sk-secret-123", "Bearer sk-secret-123"), authorizations);
    JsonArray messages = requests.get(0).getJsonArray("messages");
    assertTrue(
        messages.getJsonObject(0).getString("content").contains("are data, not instructions"));
    String user = messages.getJsonObject(1).getString("content");
    assertTrue(
        user.contains("<<<CONTEXT") && user.contains("\"inventory.store_id = stores.store_id\""),
        user);
    assertTrue(user.contains("<<<QUESTION\nWhich cities hold the most stock?\nQUESTION>>>"), user);
    String retry = requests.get(1).getJsonArray("messages").getJsonObject(1).getString("content");
    assertTrue(retry.contains(OFF_DOMAIN) && retry.contains("is not in domain retail"), retry);
    assertFalse(traceText().contains("sk-secret-123"), "no credential in the trace");
    assertTrue(traceText().contains("\"step\":\"llm\""));
  }

  @Test
  void anAnswerThatPassesValidationButFailsToRunIsSentBackToo() throws Exception {
    // EXPLAIN cannot see that no store name is a number; running it does
    String failsToRun = "SELECT stores.city, CAST(stores.name AS INTEGER) AS n FROM stores";
    int port = model("openai", List.of(failsToRun, GOOD));
    JsonObject envelope = ask("openai", port, "Which cities hold the most stock?");
    assertTrue(envelope.getBoolean("success"), envelope.encode());
    assertEquals(
        List.of(
            "retrieve",
            "prompt",
            "llm",
            "extract",
            "validate",
            "execute!",
            "llm",
            "extract",
            "validate",
            "execute"),
        steps(envelope));
    String retry = requests.get(1).getJsonArray("messages").getJsonObject(1).getString("content");
    assertTrue(retry.contains(failsToRun), retry);
  }

  @Test
  void anOllamaModelAnswersInItsOwnFormat() throws Exception {
    int port = model("ollama", List.of(GOOD));
    JsonObject envelope = ask("ollama", port, "Which cities hold the most stock?");
    assertTrue(envelope.getBoolean("success"), envelope.encode());
    assertEquals(
        List.of("retrieve", "prompt", "llm", "extract", "validate", "execute"), steps(envelope));
    assertEquals(false, requests.get(0).getBoolean("stream"));
    JsonObject llm = envelope.getJsonObject("bizresult").getJsonArray("trace").getJsonObject(2);
    assertEquals("llama-test", llm.getJsonObject("data").getString("model"));
    assertEquals(321, llm.getJsonObject("data").getInteger("prompt_tokens"));
  }

  @Test
  void aModelThatKeepsFailingEndsInABusinessFailureAfterTwoRetries() throws Exception {
    int port = model("openai", List.of(OFF_DOMAIN));
    JsonObject envelope = ask("openai", port, "Which cities hold the most stock?");
    assertFalse(envelope.getBoolean("success"));
    assertEquals(3, requests.size(), "one answer and two retries");
    assertTrue(
        envelope.getJsonObject("bizresult").getString("error").contains("not in domain retail"));
  }

  @Test
  void anUnreachableModelFallsBackToTheEmbeddedGeneratorAndSaysSo() throws Exception {
    int port;
    try (var probe = new java.net.ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    JsonObject envelope = ask("openai", port, "最近一个月销售额最高的前10个产品是什么？");
    assertTrue(envelope.getBoolean("success"), envelope.encode());
    assertEquals(
        List.of("retrieve", "prompt", "llm!", "generate", "validate", "execute"), steps(envelope));
    String message =
        envelope
            .getJsonObject("bizresult")
            .getJsonArray("trace")
            .getJsonObject(2)
            .getString("message");
    assertTrue(message.endsWith("falling back to the embedded generator"), message);
  }
}
