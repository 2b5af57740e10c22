package dev.sonde.mcp;

import dev.sonde.support.McpClient;
import dev.sonde.support.SharedSonde;
import dev.sonde.support.SondeUnderTest;

/** The contract over WebSocket, in-process. */
class WebSocketContractTest extends McpContractTest {
  @Override
  protected SondeUnderTest sonde() {
    return SharedSonde.get();
  }

  @Override
  protected McpClient connect() {
    return sonde().connect("websocket");
  }
}
