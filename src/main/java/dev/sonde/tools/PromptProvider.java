package dev.sonde.tools;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** A source of MCP prompts. Prompt arguments are untrusted data, never instructions. */
public interface PromptProvider {
  /** A message from the user holding one content block: prompts and sampling requests alike. */
  static JsonObject userMessage(JsonObject content) {
    return new JsonObject().put("role", "user").put("content", content);
  }

  /** {@code {name, title?, description, arguments?}} for each prompt. */
  List<JsonObject> prompts();

  /**
   * The tools a prompt has the model call: a principal sees the prompt only when its toolsets hold
   * every one of them that the server serves.
   */
  default List<String> toolsOf(String prompt) {
    return List.of();
  }

  /**
   * The {@code GetPromptResult} of an owned prompt, or null when the name is not this provider's.
   */
  Future<JsonObject> get(String name, JsonObject arguments);

  /**
   * {@link #get(String, JsonObject)} on a modern retry that carries the client's answers to the
   * prompt's input requests ({@code inputResponses}, by key); a prompt that asks for input returns
   * an input-required result until they are there.
   */
  default Future<JsonObject> get(String name, JsonObject arguments, JsonObject inputResponses) {
    return get(name, arguments);
  }

  /**
   * Completion values for a prompt argument; {@code resolved} holds the arguments the client has
   * already filled in.
   */
  default Future<List<String>> complete(
      String prompt, String argument, String prefix, JsonObject resolved, String account) {
    return Future.succeededFuture(List.of());
  }
}
