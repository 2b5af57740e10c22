package dev.sonde.mcp;

import dev.sonde.support.McpClient;
import dev.sonde.support.PackagedSonde;
import dev.sonde.support.SondeUnderTest;

/** The contract over Streamable HTTP against the packaged jar. */
class PackagedHttpIT extends McpContractTest {
  @Override
  protected SondeUnderTest sonde() {
    return PackagedHttpIT.Holder.get();
  }

  @Override
  protected McpClient connect() {
    return PackagedHttpIT.Holder.get().connect("http");
  }

  /** One packaged process for the HTTP and WebSocket suites, stopped when the JVM exits. */
  static final class Holder {
    private static PackagedSonde process;

    static synchronized PackagedSonde get() {
      if (process == null) {
        process = new PackagedSonde();
        PackagedSonde started = process;
        Runtime.getRuntime().addShutdownHook(new Thread(started::close));
      }
      return process;
    }
  }
}
