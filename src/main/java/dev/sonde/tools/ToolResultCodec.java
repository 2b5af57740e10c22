package dev.sonde.tools;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;
import io.vertx.core.json.JsonObject;

/**
 * Carries {@link ToolResult} replies on the event bus. Results are not modified once replied, so a
 * local reply is handed over as is instead of deep-copied; across a cluster it travels as JSON.
 */
public final class ToolResultCodec implements MessageCodec<ToolResult, ToolResult> {
  @Override
  public void encodeToWire(Buffer buffer, ToolResult result) {
    Buffer json = result.toJson().toBuffer();
    buffer.appendInt(json.length()).appendBuffer(json);
  }

  @Override
  public ToolResult decodeFromWire(int pos, Buffer buffer) {
    int length = buffer.getInt(pos);
    JsonObject json = new JsonObject(buffer.getBuffer(pos + 4, pos + 4 + length));
    return new ToolResult(
        json.getJsonArray("content"),
        json.getJsonObject("structuredContent"),
        json.getBoolean("isError", false));
  }

  @Override
  public ToolResult transform(ToolResult result) {
    return result;
  }

  @Override
  public String name() {
    return "sonde.ToolResult";
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
