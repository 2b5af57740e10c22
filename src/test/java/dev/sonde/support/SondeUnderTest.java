package dev.sonde.support;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** A running Sonde that tests talk to over the wire, in-process or as the packaged jar. */
public interface SondeUnderTest extends AutoCloseable {
  int port();

  McpClient connect(String transport);

  @Override
  void close();

  /** GET on the REST API, parsed. */
  default JsonObject api(String path) {
    try {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path)).build(),
                  HttpResponse.BodyHandlers.ofString());
      return new JsonObject(response.body()).put("httpStatus", response.statusCode());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The test family, conformance fixtures and a free port: what the suites expect. */
  String EXTRA_FAMILY = SlowJobFamilyVerticle.class.getName();
}
