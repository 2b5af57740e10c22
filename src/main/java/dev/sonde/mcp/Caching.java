package dev.sonde.mcp;

import dev.sonde.config.SondeConfig;

/**
 * How long a modern cacheable result stays fresh and who may keep it. What Sonde offers (its
 * capabilities, tools, prompts, templates) changes only with its configuration, announced as a list
 * change; it is the same for every client of one account, and with API tokens each token's toolsets
 * shape it, so it is private then. What a database holds (resources: schemas, documents) is the
 * account's and is re-read every {@code databases.schemaWatchSeconds}.
 */
record Caching(long ttlMs, String scope) {
  static final long OFFER_TTL_MS = 300_000;

  /** The caching of a method's result, or null when the method's results are not cacheable. */
  static Caching of(String method, SondeConfig config) {
    return switch (method) {
      case "server/discover" -> new Caching(OFFER_TTL_MS, "public");
      case "tools/list", "prompts/list", "resources/templates/list" ->
          new Caching(OFFER_TTL_MS, config.auth().tokens() ? "private" : "public");
      case "resources/list", "resources/read" ->
          new Caching(config.databases().schemaWatchSeconds() * 1000L, "private");
      default -> null;
    };
  }
}
