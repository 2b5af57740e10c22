package dev.sonde.schema;

import dev.sonde.config.SondeConfig;
import dev.sonde.core.CallerException;
import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.db.TableRef;
import dev.sonde.tools.CallHeaders;
import dev.sonde.tools.ResourceProvider;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent guide, each connection's dialect notes, the schema index and one resource per table.
 * Subscribed tables are re-read every {@code databases.schemaWatchSeconds}; a changed definition
 * notifies the subscribers.
 */
public final class SchemaResources implements ResourceProvider {
  static final String GUIDE = "sonde://guide";
  static final String SCHEMA = "sonde://schema";
  private static final Pattern TABLE = Pattern.compile("sonde://schema/([^/]+)/(.+)");
  private static final Pattern DIALECT = Pattern.compile("sonde://guide/([^/]+)/dialect");

  private final Vertx vertx;
  private final SondeConfig config;
  private final DatabaseRegistry databases;
  private final Map<String, String> watched = new ConcurrentHashMap<>();

  public SchemaResources(Vertx vertx, SondeConfig config, DatabaseRegistry databases) {
    this.vertx = vertx;
    this.config = config;
    this.databases = databases;
    vertx.setPeriodic(config.databases().schemaWatchSeconds() * 1000L, id -> checkWatched());
  }

  @Override
  public List<JsonObject> resources() {
    return List.of(
        new JsonObject()
            .put("uri", GUIDE)
            .put("name", "guide")
            .put("title", "Guide for agents")
            .put(
                "description",
                "Which tools to use, in which order, and the limits of each connection")
            .put("mimeType", "text/markdown"),
        new JsonObject()
            .put("uri", SCHEMA)
            .put("name", "schema")
            .put("title", "Schema index")
            .put("description", "Every connection's tables and views, with their resource URIs")
            .put("mimeType", "application/json"));
  }

  @Override
  public List<JsonObject> templates() {
    return List.of(
        new JsonObject()
            .put("uriTemplate", "sonde://guide/{connection}/dialect")
            .put("name", "dialect")
            .put("description", "How this connection's SQL differs from standard SQL")
            .put("mimeType", "text/markdown"),
        new JsonObject()
            .put("uriTemplate", "sonde://schema/{connection}/{table}")
            .put("name", "table")
            .put("description", "One table's definition, as describe_table returns it")
            .put("mimeType", "application/json"));
  }

  /**
   * A table's schema is what describe_table shows, the table list list_tables', a dialect guide is
   * for queries.
   */
  @Override
  public String toolFor(String uri) {
    if (uri.equals(SCHEMA)) {
      return "list_tables";
    }
    if (TABLE.matcher(uri).matches()) {
      return "describe_table";
    }
    return DIALECT.matcher(uri).matches() ? "execute_query" : null;
  }

  @Override
  public boolean owns(String uri) {
    return uri.equals(GUIDE)
        || uri.equals(SCHEMA)
        || TABLE.matcher(uri).matches()
        || DIALECT.matcher(uri).matches();
  }

  @Override
  public Future<JsonObject> read(String uri, String account) {
    try {
      return readOwned(uri, account);
    } catch (CallerException e) {
      return Future.failedFuture(e);
    }
  }

  private Future<JsonObject> readOwned(String uri, String account) {
    if (uri.equals(GUIDE)) {
      return Future.succeededFuture(ResourceProvider.textContents(uri, "text/markdown", guide()));
    }
    Matcher dialect = DIALECT.matcher(uri);
    if (dialect.matches()) {
      Database database = databases.get(dialect.group(1), account);
      return Future.succeededFuture(
          ResourceProvider.textContents(
              uri, "text/markdown", text("/sonde-docs/sql/" + database.dialectName() + ".md")));
    }
    if (uri.equals(SCHEMA)) {
      return index(account)
          .map(
              index ->
                  ResourceProvider.textContents(uri, "application/json", index.encodePrettily()));
    }
    Matcher table = TABLE.matcher(uri);
    table.matches();
    return describe(table, account)
        .map(d -> ResourceProvider.textContents(uri, "application/json", d.encodePrettily()));
  }

  /**
   * The table's definition; an unknown or unavailable connection fails the future, not the caller.
   */
  private Future<JsonObject> describe(Matcher table, String account) {
    try {
      return databases
          .get(table.group(1), account)
          .describe(URLDecoder.decode(table.group(2), StandardCharsets.UTF_8));
    } catch (CallerException e) {
      return Future.failedFuture(e);
    }
  }

  private String guide() {
    StringBuilder connections = new StringBuilder();
    config.databases().connections().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              SondeConfig.ConnectionConfig c = e.getValue();
              connections
                  .append("- `")
                  .append(e.getKey())
                  .append("` (")
                  .append(c.type())
                  .append("): ")
                  .append(c.description().isBlank() ? "no description" : c.description())
                  .append(". At most ")
                  .append(c.maxRows())
                  .append(" rows and ")
                  .append(c.maxChars())
                  .append(" characters per result, ")
                  .append(c.queryTimeoutSeconds())
                  .append(" s per query")
                  .append(c.write() ? "; writes allowed" : "; read-only")
                  .append(".\n");
            });
    return text("/guide/agent.md")
        .replace("{DEFAULT}", config.databases().defaultConnection())
        .replace("{CONNECTIONS}", connections.toString().trim());
  }

  private Future<JsonObject> index(String account) {
    List<String> names = databases.names();
    List<Future<JsonObject>> each =
        names.stream()
            .map(
                name -> {
                  try {
                    Database database = databases.get(name, account);
                    return database
                        .tables()
                        .map(
                            tables ->
                                new JsonObject()
                                    .put("dialect", database.dialectName())
                                    .put("description", database.config().description())
                                    .put(
                                        "tables",
                                        new JsonArray(
                                            tables.stream()
                                                .map(
                                                    t ->
                                                        (Object)
                                                            new JsonObject()
                                                                .put("name", t.qualified())
                                                                .put("kind", t.kind())
                                                                .put("uri", tableUri(name, t)))
                                                .toList())));
                  } catch (RuntimeException e) {
                    return Future.succeededFuture(new JsonObject().put("error", e.getMessage()));
                  }
                })
            .toList();
    return Future.join(each)
        .transform(
            done -> {
              JsonObject out = new JsonObject();
              for (int i = 0; i < names.size(); i++) {
                out.put(
                    names.get(i),
                    each.get(i).succeeded()
                        ? each.get(i).result()
                        : new JsonObject().put("error", each.get(i).cause().getMessage()));
              }
              return Future.succeededFuture(new JsonObject().put("connections", out));
            });
  }

  static String tableUri(String connection, TableRef table) {
    String name =
        table.schema() == null || table.schema().isEmpty()
            ? table.name()
            : table.schema() + "." + table.name();
    return "sonde://schema/" + connection + "/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
  }

  @Override
  public Future<List<String>> complete(
      String uriTemplate, String variable, String prefix, JsonObject resolved, String account) {
    // only a variable of one of these templates: completion must not list what reading cannot
    boolean ours =
        templates().stream()
            .anyMatch(
                t ->
                    t.getString("uriTemplate").equals(uriTemplate)
                        && uriTemplate.contains("{" + variable + "}"));
    return ours
        ? SchemaCompletions.complete(databases, variable, prefix, resolved, account)
        : Future.succeededFuture(List.of());
  }

  @Override
  public void subscribed(String uri) {
    Matcher table = TABLE.matcher(uri);
    if (table.matches()) {
      // watched as the login: a change is announced, what changed is read by each account
      describe(table, null)
          .onComplete(ar -> watched.put(uri, ar.succeeded() ? ar.result().encode() : "missing"));
    }
  }

  @Override
  public void unsubscribed(String uri) {
    watched.remove(uri);
  }

  private void checkWatched() {
    watched.forEach(
        (uri, before) -> {
          Matcher table = TABLE.matcher(uri);
          table.matches();
          describe(table, null)
              .onComplete(
                  ar -> {
                    String now = ar.succeeded() ? ar.result().encode() : "missing";
                    if (watched.replace(uri, before, now) && !now.equals(before)) {
                      vertx
                          .eventBus()
                          .publish(
                              CallHeaders.RESOURCE_UPDATED_ADDRESS,
                              new JsonObject().put("uri", uri));
                    }
                  });
        });
  }

  static String text(String resource) {
    try (InputStream in = SchemaResources.class.getResourceAsStream(resource)) {
      return in == null
          ? text("/sonde-docs/sql/jdbc.md")
          : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource, e);
    }
  }
}
