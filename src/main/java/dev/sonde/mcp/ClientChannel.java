package dev.sonde.mcp;

import io.vertx.core.json.JsonObject;

/**
 * "Send this JSON to that client": all a transport implements, so progress, logging and
 * server-to-client requests are the same whatever carries them.
 */
public interface ClientChannel {
  void send(JsonObject message);

  /** Called when the underlying connection goes away (for cancel-on-disconnect). */
  default void onClose(Runnable action) {}
}
