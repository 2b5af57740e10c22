package dev.sonde.tools;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** A source of MCP resources (and resource templates) served by the protocol engine. */
public interface ResourceProvider {
  /** The {@code ReadResourceResult} of one text resource. */
  static JsonObject textContents(String uri, String mimeType, String text) {
    return new JsonObject()
        .put(
            "contents",
            new JsonArray()
                .add(new JsonObject().put("uri", uri).put("mimeType", mimeType).put("text", text)));
  }

  /** Direct resources: {@code {uri, name, title?, description, mimeType?}}. */
  List<JsonObject> resources();

  /** Templates: {@code {uriTemplate, name, description, mimeType?}}. */
  default List<JsonObject> templates() {
    return List.of();
  }

  /**
   * The tool whose data a resource or template shows, or null when anyone may read it: a principal
   * whose toolsets leave that tool out neither lists nor reads it.
   */
  default String toolFor(String uri) {
    return null;
  }

  /** Whether this provider serves {@code uri}. */
  boolean owns(String uri);

  /** The {@code ReadResourceResult} ({@code {contents: [...]}}) of an owned uri. */
  Future<JsonObject> read(String uri, String account);

  /**
   * Completion values for a template variable; {@code resolved} holds the variables the client has
   * already filled in.
   */
  default Future<List<String>> complete(
      String uriTemplate, String variable, String prefix, JsonObject resolved, String account) {
    return Future.succeededFuture(List.of());
  }

  /** A session subscribed to {@code uri}; a provider that can watch it publishes changes. */
  default void subscribed(String uri) {}

  /** The last subscription to {@code uri} ended. */
  default void unsubscribed(String uri) {}
}
