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
    HttpResponse<String> response = api("GET", path);
    return new JsonObject(response.body()).put("httpStatus", response.statusCode());
  }

  /** One request without a body on the REST API, such as the job view's DELETE. */
  default HttpResponse<String> api(String method, String path) {
    try {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
                  .method(method, HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The test family, conformance fixtures and a free port: what the suites expect. */
  String EXTRA_FAMILY = SlowJobFamilyVerticle.class.getName();
}
