package dev.sonde.mcp;

import dev.sonde.support.McpClient;
import dev.sonde.support.SharedSonde;
import dev.sonde.support.SondeUnderTest;

/** The contract over Streamable HTTP, in-process. */
class HttpContractTest extends McpContractTest {
  @Override
  protected SondeUnderTest sonde() {
    return SharedSonde.get();
  }

  @Override
  protected McpClient connect() {
    return sonde().connect("http");
  }
}
