package dev.sonde.web;

import dev.sonde.mcp.ClientChannel;
import dev.sonde.mcp.McpServer;
import dev.sonde.mcp.Session;
import dev.sonde.mcp.SessionStore;
import io.vertx.core.Context;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * MCP over stdio: newline-delimited JSON-RPC in, the same out, nothing else on the output stream. A
 * reader thread hands each line to the event loop; the end of input ends the session and calls
 * {@code onEnd}.
 */
public final class StdioTransport {
  private final McpServer server;
  private final Context context;
  private final OutputStream out;
  private final InputStream in;

  public StdioTransport(McpServer server, Context context, InputStream in, OutputStream out) {
    this.server = server;
    this.context = context;
    this.in = in;
    this.out = out;
    server.transportStarted(SessionStore.STDIO);
  }

  public void start(Runnable onEnd) {
    Session session = server.openSession(SessionStore.STDIO);
    ClientChannel channel = this::write;
    session.standalone(channel);
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  String text = line;
                  if (!text.isBlank()) {
                    context.runOnContext(v -> server.receive(session, text, channel));
                  }
                }
              } catch (IOException e) {
                // the input is gone: treat it like its end
              }
              context.runOnContext(
                  v -> {
                    server.closeSession(session);
                    onEnd.run();
                  });
            },
            "sonde-stdio-reader");
    reader.setDaemon(true);
    reader.start();
  }

  private void write(JsonObject message) {
    byte[] bytes = (message.encode() + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (out) {
      try {
        out.write(bytes);
        out.flush();
      } catch (IOException e) {
        // the reader will see the end of input and stop
      }
    }
  }
}
