package dev.sonde.tools;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * An MCP {@code CallToolResult}: content blocks, optional structured content, and the error flag.
 */
public record ToolResult(JsonArray content, JsonObject structuredContent, boolean isError) {

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

  public JsonObject toJson() {
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
