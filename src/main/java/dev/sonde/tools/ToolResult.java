package dev.sonde.tools;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * An MCP {@code CallToolResult}: content blocks, optional structured content, and the error flag;
 * or, when the tool needs something of the client first, its {@link InputRequired} request.
 */
public record ToolResult(
    JsonArray content, JsonObject structuredContent, boolean isError, InputRequired inputRequired) {

  /**
   * What a tool asks of the client before it can answer (MCP's multi-round-trip pattern): the
   * client requests to run, by key ({@code elicitation/create}, {@code sampling/createMessage},
   * {@code roots/list}), and what the tool keeps for the retry that carries their answers. The
   * server seals that state for a modern client, or runs the requests itself on a legacy session.
   */
  public record InputRequired(JsonObject inputRequests, JsonObject state) {}

  public ToolResult(JsonArray content, JsonObject structuredContent, boolean isError) {
    this(content, structuredContent, isError, null);
  }

  /** The tool needs these client requests answered, then to be called again with {@code state}. */
  public static ToolResult inputRequired(JsonObject inputRequests, JsonObject state) {
    return new ToolResult(null, null, false, new InputRequired(inputRequests, state));
  }

  public static ToolResult text(String text) {
    return new ToolResult(new JsonArray().add(textBlock(text)), null, false);
  }

  /** A result the caller can act on: the message says what to change. */
  public static ToolResult error(String message) {
    return new ToolResult(new JsonArray().add(textBlock(message)), null, true);
  }

  /** Structured content with its JSON text as the readable rendering (as the spec recommends). */
  public static ToolResult structured(JsonObject structured) {
    return new ToolResult(new JsonArray().add(textBlock(structured.encode())), structured, false);
  }

  /** Structured content with a readable rendering first, then its JSON text for older clients. */
  public static ToolResult structured(JsonObject structured, String readable) {
    return new ToolResult(
        new JsonArray().add(textBlock(readable)).add(textBlock(structured.encode())),
        structured,
        false);
  }

  /** An operation's answer for another part of Sonde: its JSON alone, with no text rendering. */
  public static ToolResult data(JsonObject structured) {
    return new ToolResult(new JsonArray(), structured, false);
  }

  public static ToolResult content(JsonArray blocks) {
    return new ToolResult(blocks, null, false);
  }

  /** The text of the first content block: an error's message. */
  public String firstText() {
    Object first = content == null || content.isEmpty() ? null : content.getValue(0);
    return first instanceof JsonObject block ? block.getString("text", "") : "";
  }

  public static JsonObject textBlock(String text) {
    return new JsonObject().put("type", "text").put("text", text);
  }

  /**
   * The wire JSON; an input-required result carries its requests, its state left for the server to
   * seal.
   */
  public JsonObject toJson() {
    if (inputRequired != null) {
      return new JsonObject()
          .put("resultType", "input_required")
          .put("inputRequests", inputRequired.inputRequests());
    }
    JsonObject json = new JsonObject().put("content", content);
    if (structuredContent != null) {
      json.put("structuredContent", structuredContent);
    }
    if (isError) {
      json.put("isError", true);
    }
    return json;
  }
}
