package dev.sonde.tools;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The client requests a tool may return in an input-required result ({@link
 * ToolResult#inputRequired}), and readers of the answers a retry brings back. Answers are the
 * client's, so each reader returns null for anything missing, declined or malformed.
 */
public final class ClientInput {
  private ClientInput() {}

  /** Ask the user: {@code elicitation/create} with a form of flat fields. */
  public static JsonObject elicitation(String message, JsonObject requestedSchema) {
    return request(
        "elicitation/create",
        new JsonObject()
            .put("mode", "form")
            .put("message", message)
            .put("requestedSchema", requestedSchema));
  }

  /** The form of one required field of a JSON type: what most questions to a person need. */
  public static JsonObject form(String field, String type) {
    return new JsonObject()
        .put("type", "object")
        .put("properties", new JsonObject().put(field, new JsonObject().put("type", type)))
        .put("required", new JsonArray().add(field));
  }

  /** The form of one required field whose value is one of {@code options}. */
  public static JsonObject choice(String field, String title, List<String> options) {
    return new JsonObject()
        .put("type", "object")
        .put(
            "properties",
            new JsonObject()
                .put(
                    field,
                    new JsonObject()
                        .put("type", "string")
                        .put("title", title)
                        .put("enum", new JsonArray(List.copyOf(options)))))
        .put("required", new JsonArray().add(field));
  }

  /** Ask the client's model: {@code sampling/createMessage} with one user message. */
  public static JsonObject sampling(String prompt, int maxTokens) {
    return request(
        "sampling/createMessage",
        new JsonObject()
            .put(
                "messages",
                new JsonArray().add(PromptProvider.userMessage(ToolResult.textBlock(prompt))))
            .put("maxTokens", maxTokens));
  }

  /** Ask which folders the client shares: {@code roots/list}. */
  public static JsonObject roots() {
    return request("roots/list", new JsonObject());
  }

  /** The form the user accepted for {@code key}, or null. */
  public static JsonObject accepted(JsonObject responses, String key) {
    return responses.getValue(key) instanceof JsonObject answer
            && "accept".equals(answer.getValue("action"))
            && answer.getValue("content") instanceof JsonObject content
        ? content
        : null;
  }

  /** The text the client's model answered for {@code key}, or null. */
  public static String sampled(JsonObject responses, String key) {
    return responses.getValue(key) instanceof JsonObject answer
            && answer.getValue("content") instanceof JsonObject content
            && content.getValue("text") instanceof String text
        ? text
        : null;
  }

  /** The roots the client listed for {@code key}, or null. */
  public static JsonArray rootsOf(JsonObject responses, String key) {
    return responses.getValue(key) instanceof JsonObject answer
            && answer.getValue("roots") instanceof JsonArray roots
        ? roots
        : null;
  }

  private static JsonObject request(String method, JsonObject params) {
    return new JsonObject().put("method", method).put("params", params);
  }
}
