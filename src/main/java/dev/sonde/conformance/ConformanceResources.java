package dev.sonde.conformance;

import dev.sonde.tools.ResourceProvider;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.regex.Pattern;

/** The fixture resources of the conformance suite. */
public final class ConformanceResources implements ResourceProvider {
  private static final Pattern TEMPLATE = Pattern.compile("test://template/([^/]+)/data");

  @Override
  public List<JsonObject> resources() {
    return List.of(
        entry("test://static-text", "static-text", "A static text resource", "text/plain"),
        entry(
            "test://static-binary", "static-binary", "A static binary resource (PNG)", "image/png"),
        entry(
            "test://watched-resource",
            "watched-resource",
            "A resource to subscribe to",
            "text/plain"));
  }

  @Override
  public List<JsonObject> templates() {
    return List.of(
        new JsonObject()
            .put("uriTemplate", "test://template/{id}/data")
            .put("name", "template-data")
            .put("description", "Data for an id")
            .put("mimeType", "application/json"));
  }

  @Override
  public boolean owns(String uri) {
    return resources().stream().anyMatch(r -> uri.equals(r.getString("uri")))
        || TEMPLATE.matcher(uri).matches();
  }

  @Override
  public Future<JsonObject> read(String uri, String account) {
    JsonObject content = new JsonObject().put("uri", uri);
    switch (uri) {
      case "test://static-text" ->
          content
              .put("mimeType", "text/plain")
              .put("text", "This is the content of the static text resource.");
      case "test://static-binary" ->
          content.put("mimeType", "image/png").put("blob", Media.RED_PIXEL_PNG);
      case "test://watched-resource" ->
          content.put("mimeType", "text/plain").put("text", "Watched resource content.");
      default -> {
        String id = TEMPLATE.matcher(uri).replaceFirst("$1");
        content
            .put("mimeType", "application/json")
            .put(
                "text",
                new JsonObject()
                    .put("id", id)
                    .put("templateTest", true)
                    .put("data", "Data for ID: " + id)
                    .encode());
      }
    }
    return Future.succeededFuture(new JsonObject().put("contents", new JsonArray().add(content)));
  }

  private static JsonObject entry(String uri, String name, String description, String mimeType) {
    return new JsonObject()
        .put("uri", uri)
        .put("name", name)
        .put("description", description)
        .put("mimeType", mimeType);
  }
}
