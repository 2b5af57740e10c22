package dev.sonde.mcp;

import dev.sonde.support.McpClient;
import dev.sonde.support.SondeUnderTest;

/** The contract over WebSocket against the packaged jar (shares the HTTP suite's process). */
class PackagedWebSocketIT extends McpContractTest {
  @Override
  protected SondeUnderTest sonde() {
    return PackagedHttpIT.Holder.get();
  }

  @Override
  protected McpClient connect() {
    return PackagedHttpIT.Holder.get().connect("websocket");
  }
}
