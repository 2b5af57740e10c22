package dev.sonde.tools;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** A source of MCP resources (and resource templates) served by the protocol engine. */
public interface ResourceProvider {
  /** Direct resources: {@code {uri, name, title?, description, mimeType?}}. */
  List<JsonObject> resources();

  /** Templates: {@code {uriTemplate, name, description, mimeType?}}. */
  default List<JsonObject> templates() {
    return List.of();
  }

  /** Whether this provider serves {@code uri}. */
  boolean owns(String uri);

  /** The {@code ReadResourceResult} ({@code {contents: [...]}}) of an owned uri. */
  Future<JsonObject> read(String uri);

  /**
   * Completion values for a template variable; {@code resolved} holds the variables the client has
   * already filled in.
   */
  default Future<List<String>> complete(
      String uriTemplate, String variable, String prefix, JsonObject resolved) {
    return Future.succeededFuture(List.of());
  }

  /** A session subscribed to {@code uri}; a provider that can watch it publishes changes. */
  default void subscribed(String uri) {}

  /** The last subscription to {@code uri} ended. */
  default void unsubscribed(String uri) {}
}
