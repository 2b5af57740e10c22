package dev.sonde.bench;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;

/** The benchmark's ceiling: Vert.x answering every request with a fixed JSON-RPC result. */
public final class BareVertxServer {
  private BareVertxServer() {}

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    Buffer body =
        Buffer.buffer(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}}");
    Vertx vertx = Vertx.vertx();
    vertx
        .createHttpServer(new HttpServerOptions().setHost("127.0.0.1"))
        .requestHandler(
            req ->
                req.body()
                    .onSuccess(
                        b ->
                            req.response().putHeader("Content-Type", "application/json").end(body)))
        .listen(port)
        .onSuccess(s -> System.err.println("bare Vert.x listening on " + s.actualPort()));
  }
}
