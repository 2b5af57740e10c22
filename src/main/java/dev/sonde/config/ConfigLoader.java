package dev.sonde.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Builds {@link SondeConfig} from defaults, a YAML file, the environment and command-line flags, in
 * rising precedence. Every key of the defaults can be set by an environment variable named after
 * its path ({@code server.maxRequestBytes} → {@code SONDE_SERVER_MAX_REQUEST_BYTES}).
 */
public final class ConfigLoader {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper BINDER = binder();

  /**
   * Maps whose keys the user names; each entry starts from a template and is checked against it.
   */
  private static final Map<String, JsonNode> OPEN_MAPS =
      Map.of(
          "databases.connections",
          BINDER.valueToTree(SondeConfig.ConnectionConfig.template()),
          "docs.sources",
          BINDER.valueToTree(SondeConfig.DocsSourceConfig.template()),
          "timeseries.tables",
          BINDER.valueToTree(SondeConfig.TagTableConfig.template()),
          "auth.toolsets",
          BINDER.valueToTree(SondeConfig.ToolsetConfig.template()),
          "databases.connections.*.accounts",
          BINDER.valueToTree(SondeConfig.AccountIdentityConfig.template()));

  /** A name the user gives an entry: a connection, a source, a table, a toolset. */
  private static final String ENTRY_NAME = "[A-Za-z][A-Za-z0-9_-]*";

  /** Whether {@code name} may name an entry of the open map at {@code path}. */
  private static boolean usableName(String path, String name) {
    return path.endsWith(".accounts")
        ? name.equals("*") || dev.sonde.core.AccountName.isValid(name)
        : name.matches(ENTRY_NAME);
  }

  private ConfigLoader() {}

  /**
   * @param file the YAML file, or null for defaults only
   * @param env the environment (System.getenv() in production)
   * @param flags overrides by dotted key, from the command line
   */
  public static SondeConfig load(Path file, Map<String, String> env, Map<String, String> flags) {
    ObjectNode tree = BINDER.valueToTree(SondeConfig.defaults());
    if (file != null) {
      merge(tree, readYaml(file), "", file.toString());
    }
    // after the file: the environment and flags may override keys of connections it names
    Set<String> leaves = new TreeSet<>();
    collectLeaves(tree, "", leaves);
    for (String key : leaves) {
      String value = env.get(envName(key));
      if (value != null) {
        set(tree, key, value, envName(key));
      }
    }
    for (Map.Entry<String, String> flag : flags.entrySet()) {
      if (!leaves.contains(flag.getKey()) && addOpenMapEntry(tree, flag.getKey())) {
        leaves.clear();
        collectLeaves(tree, "", leaves);
      }
      if (!leaves.contains(flag.getKey())) {
        throw new ConfigException("unknown configuration key '" + flag.getKey() + "'");
      }
      set(tree, flag.getKey(), flag.getValue(), "flag");
    }
    requireValues(tree, "");
    SondeConfig config = bind(tree);
    validate(config);
    return config;
  }

  /** The environment variable that overrides a dotted key. */
  public static String envName(String key) {
    return "SONDE_" + key.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replace('.', '_').toUpperCase();
  }

  private static ObjectMapper binder() {
    ObjectMapper mapper = new ObjectMapper();
    mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    mapper.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    // "8080" from the environment is a number; 8080.5 or "yes" for a number is not
    mapper
        .coercionConfigFor(LogicalType.Integer)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
    mapper
        .coercionConfigFor(LogicalType.Boolean)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
    return mapper;
  }

  private static JsonNode readYaml(Path file) {
    try {
      JsonNode node = YAML.readTree(Files.readString(file));
      if (node == null || node.isMissingNode() || node.isNull()) {
        return JsonNodeFactory.instance.objectNode();
      }
      if (!node.isObject()) {
        throw new ConfigException(file + ": the top level must be a mapping of sections");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new ConfigException(
          file
              + ": not valid YAML at line "
              + e.getLocation().getLineNr()
              + ": "
              + e.getOriginalMessage());
    } catch (IOException e) {
      throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
    }
  }

  private static void merge(ObjectNode target, JsonNode source, String prefix, String origin) {
    Iterator<Map.Entry<String, JsonNode>> fields = source.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String key = prefix + field.getKey();
      JsonNode existing = target.get(field.getKey());
      JsonNode entryTemplate =
          openMapTemplate(prefix.isEmpty() ? "" : prefix.substring(0, prefix.length() - 1));
      if (existing == null && entryTemplate != null) {
        if (!usableName(prefix.substring(0, prefix.length() - 1), field.getKey())) {
          throw new ConfigException(
              origin + ": '" + key + "' is not a usable name (letters, digits, - and _)");
        }
        existing = entryTemplate.deepCopy();
        target.set(field.getKey(), existing);
      }
      if (existing == null) {
        List<String> known = new ArrayList<>();
        target.fieldNames().forEachRemaining(known::add);
        throw new ConfigException(
            origin
                + ": unknown key '"
                + key
                + "' (known keys here: "
                + String.join(", ", known)
                + ")");
      }
      if (existing.isObject()) {
        if (!field.getValue().isObject()) {
          throw new ConfigException(origin + ": '" + key + "' must be a mapping of keys");
        }
        merge((ObjectNode) existing, field.getValue(), key + ".", origin);
      } else {
        target.set(field.getKey(), field.getValue());
      }
    }
  }

  /**
   * For {@code databases.connections.<new name>.<key>} (and the maps inside entries): adds each
   * entry the key names from its template; whether one was added.
   */
  private static boolean addOpenMapEntry(ObjectNode tree, String key) {
    String[] parts = key.split("\\.");
    JsonNode node = tree;
    StringBuilder path = new StringBuilder();
    boolean added = false;
    for (int i = 0; i < parts.length - 1 && node instanceof ObjectNode map; i++) {
      JsonNode template = openMapTemplate(path.toString());
      if (map.get(parts[i]) == null && template != null && usableName(path.toString(), parts[i])) {
        map.set(parts[i], template.deepCopy());
        added = true;
      }
      node = map.get(parts[i]);
      path.append(path.length() == 0 ? "" : ".").append(parts[i]);
    }
    return added;
  }

  /** The template of the entries of the open map at dotted {@code path}, or null for none. */
  private static JsonNode openMapTemplate(String path) {
    String[] parts = path.split("\\.");
    for (Map.Entry<String, JsonNode> open : OPEN_MAPS.entrySet()) {
      String[] pattern = open.getKey().split("\\.");
      boolean matches = pattern.length == parts.length;
      for (int i = 0; matches && i < parts.length; i++) {
        matches = pattern[i].equals("*") || pattern[i].equals(parts[i]);
      }
      if (matches) {
        return open.getValue();
      }
    }
    return null;
  }

  private static void set(ObjectNode tree, String key, String value, String origin) {
    String[] parts = key.split("\\.");
    ObjectNode node = tree;
    for (int i = 0; i < parts.length - 1; i++) {
      node = (ObjectNode) node.get(parts[i]);
    }
    String leaf = parts[parts.length - 1];
    if (node.get(leaf) != null && node.get(leaf).isArray()) {
      ArrayNode list = JsonNodeFactory.instance.arrayNode();
      for (String item : value.split(",")) {
        if (!item.isBlank()) {
          list.add(item.trim());
        }
      }
      node.set(leaf, list);
    } else {
      node.set(leaf, TextNode.valueOf(value));
    }
  }

  private static void collectLeaves(JsonNode node, String prefix, Set<String> out) {
    node.fields()
        .forEachRemaining(
            f -> {
              if (f.getValue().isObject()) {
                collectLeaves(f.getValue(), prefix + f.getKey() + ".", out);
              } else {
                out.add(prefix + f.getKey());
              }
            });
  }

  private static void requireValues(JsonNode node, String prefix) {
    node.fields()
        .forEachRemaining(
            f -> {
              String key = prefix + f.getKey();
              if (f.getValue().isNull()) {
                throw new ConfigException("configuration key '" + key + "' needs a value");
              }
              if (f.getValue().isObject()) {
                requireValues(f.getValue(), key + ".");
              }
            });
  }

  private static SondeConfig bind(JsonNode tree) {
    try {
      return BINDER.treeToValue(tree, SondeConfig.class);
    } catch (JsonMappingException e) {
      StringBuilder key = new StringBuilder();
      for (JsonMappingException.Reference ref : e.getPath()) {
        if (ref.getFieldName() != null) {
          key.append(key.length() == 0 ? "" : ".").append(ref.getFieldName());
        }
      }
      String expected = e.getPath().isEmpty() ? "a value" : describe(e);
      throw new ConfigException(
          "configuration key '" + key + "' has the wrong type: expected " + expected);
    } catch (JsonProcessingException e) {
      throw new ConfigException("configuration cannot be read: " + e.getOriginalMessage());
    }
  }

  private static String describe(JsonMappingException e) {
    String message = e.getOriginalMessage();
    if (message.contains("`int`") || message.contains("Integer")) {
      return "a whole number";
    }
    if (message.contains("`boolean`") || message.contains("Boolean")) {
      return "true or false";
    }
    if (message.contains("List") || message.contains("ArrayList")) {
      return "a list";
    }
    return "a text value";
  }

  private static void validate(SondeConfig c) {
    range("server.port", c.server().port(), 0, 65535);
    range("server.eventLoops", c.server().eventLoops(), 0, 256);
    range("server.instances", c.server().instances(), 1, 64);
    range("server.maxRequestBytes", c.server().maxRequestBytes(), 1024, 1 << 30);
    range("server.maxWebSocketMessageBytes", c.server().maxWebSocketMessageBytes(), 1024, 1 << 30);
    range("server.keepAliveSeconds", c.server().keepAliveSeconds(), 1, 3600);
    // at or under the keep-alive it would close every quiet event stream, and at or under the
    // tool deadline a call answering plain JSON would lose its connection before its answer
    range(
        "server.idleTimeoutSeconds",
        c.server().idleTimeoutSeconds(),
        Math.max(c.server().keepAliveSeconds(), c.mcp().toolTimeoutSeconds()) + 1,
        7 * 24 * 3600);
    range("server.headerTimeoutSeconds", c.server().headerTimeoutSeconds(), 1, 3600);
    range("server.bodyTimeoutSeconds", c.server().bodyTimeoutSeconds(), 1, 3600);
    range("server.maxConnectionsPerPeer", c.server().maxConnectionsPerPeer(), 1, 1_000_000);
    range("server.maxConnections", c.server().maxConnections(), 1, 10_000_000);
    if (c.server().maxBufferedBytes() < 0) {
      throw new ConfigException(
          "configuration key 'server.maxBufferedBytes' is "
              + c.server().maxBufferedBytes()
              + "; use 0 (a quarter of the heap) or a number of bytes");
    }
    range("mcp.maxSessions", c.mcp().maxSessions(), 1, 10_000_000);
    range("auth.audit.keepDays", c.auth().audit().keepDays(), 1, 3650);
    range("auth.limits.maxConcurrentCalls", c.auth().limits().maxConcurrentCalls(), 0, 1_000_000);
    range("auth.limits.maxConcurrentJobs", c.auth().limits().maxConcurrentJobs(), 0, 1_000_000);
    range("auth.limits.maxSessions", c.auth().limits().maxSessions(), 0, 1_000_000);
    range("auth.audit.keepMegabytes", c.auth().audit().keepMegabytes(), 1, 1_000_000);
    range("mcp.pageSize", c.mcp().pageSize(), 1, 1000);
    range("mcp.sessionIdleMinutes", c.mcp().sessionIdleMinutes(), 1, 7 * 24 * 60);
    range("mcp.toolTimeoutSeconds", c.mcp().toolTimeoutSeconds(), 1, 24 * 3600);
    range("jobs.workerPoolSize", c.jobs().workerPoolSize(), 1, 512);
    range("jobs.historyPerJob", c.jobs().historyPerJob(), 10, 1_000_000);
    range("jobs.retainFinished", c.jobs().retainFinished(), 1, 100_000);
    range("jobs.taskTtlSeconds", c.jobs().taskTtlSeconds(), 1, 7 * 24 * 3600);
    range("dashboards.maxPanels", c.dashboards().maxPanels(), 1, 10_000);
    if (c.server().host().isBlank()) {
      throw new ConfigException("configuration key 'server.host' needs a value");
    }
    if (!List.of(
            SondeConfig.AuthConfig.NONE,
            SondeConfig.AuthConfig.TOKENS,
            SondeConfig.AuthConfig.OAUTH)
        .contains(c.auth().mode())) {
      throw new ConfigException(
          "configuration key 'auth.mode' is '"
              + c.auth().mode()
              + "'; use none (every HTTP request is the local account), tokens (API tokens,"
              + " made with: java -jar sonde.jar token create --account NAME --toolsets SETS) or"
              + " oauth (access tokens of auth.oauth.issuer, and API tokens)");
    }
    if (c.auth().oauthOn()) {
      absoluteUrl("auth.oauth.issuer", c.auth().oauth().issuer(), "https://login.example.com");
      absoluteUrl(
          "auth.oauth.resource", c.auth().oauth().resource(), "https://sonde.example.com/mcp");
      if (!c.auth().oauth().jwksUrl().isBlank()) {
        absoluteUrl(
            "auth.oauth.jwksUrl", c.auth().oauth().jwksUrl(), "https://login.example.com/jwks");
      }
      if (c.auth().oauth().accountClaim().isBlank()) {
        throw new ConfigException(
            "configuration key 'auth.oauth.accountClaim' needs a value, such as sub");
      }
    }
    if (c.server().enabled()
        && !c.auth().tokens()
        && !c.server().allowUnauthenticated()
        && !bind(c.server().host()).loopback()) {
      throw new ConfigException(
          "configuration key 'server.host' is "
              + c.server().host()
              + ", which is not a loopback address, and auth.mode is none: anyone who reaches it"
              + " could run every tool. Set auth.mode: tokens (and create tokens with java -jar"
              + " sonde.jar token create), bind to 127.0.0.1, or set"
              + " server.allowUnauthenticated: true to accept that");
    }
    if (!LogLevel.isKnown(c.mcp().defaultLogLevel())) {
      throw new ConfigException(
          "configuration key 'mcp.defaultLogLevel' must be one of " + LogLevel.NAMES);
    }
    if (c.data().dir().isBlank()) {
      throw new ConfigException("configuration key 'data.dir' needs a value");
    }
    validateDatabases(c.databases());
    validateDocs(c.docs());
    validateTimeSeries(c.timeseries(), c.databases());
    validateChatBi(c.chatbi());
    if (c.cluster().enabled()) {
      throw new ConfigException(
          "configuration key 'cluster.enabled': this build has no cluster manager; set it to false");
    }
  }

  /**
   * Where {@code server.host} binds: its first address as a literal (the JDK reads spellings such
   * as {@code 127.1} that the server's own resolver does not) and whether all its addresses are
   * loopback. It may look the name up: call it once, off any event loop.
   */
  public record Bind(String address, boolean loopback) {}

  public static Bind bind(String host) {
    String bare =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    try {
      InetAddress[] addresses = InetAddress.getAllByName(bare);
      boolean loopback = true;
      for (InetAddress address : addresses) {
        loopback &= address.isLoopbackAddress();
      }
      return new Bind(addresses[0].getHostAddress(), loopback);
    } catch (UnknownHostException e) {
      throw new ConfigException(
          "configuration key 'server.host': " + host + " is not an address or a known host name");
    }
  }

  private static final List<String> LLM_PROVIDERS = List.of("none", "openai", "ollama");

  private static void validateChatBi(SondeConfig.ChatBiConfig chatbi) {
    range("chatbi.rowCap", chatbi.rowCap(), 1, 100_000);
    range("chatbi.explainTimeoutSeconds", chatbi.explainTimeoutSeconds(), 1, 600);
    range("chatbi.traceKeepDays", chatbi.traceKeepDays(), 1, 3650);
    range("chatbi.traceKeepFiles", chatbi.traceKeepFiles(), 1, 1_000_000);
    SondeConfig.LlmConfig llm = chatbi.llm();
    if (!LLM_PROVIDERS.contains(llm.provider())) {
      throw new ConfigException(
          "configuration key 'chatbi.llm.provider' must be one of " + LLM_PROVIDERS);
    }
    if (!llm.provider().equals("none") && (llm.baseUrl().isBlank() || llm.model().isBlank())) {
      throw new ConfigException(
          "configuration keys 'chatbi.llm.baseUrl' and 'chatbi.llm.model' need values when"
              + " chatbi.llm.provider is "
              + llm.provider());
    }
    range("chatbi.llm.timeoutSeconds", llm.timeoutSeconds(), 1, 3600);
    range("chatbi.llm.retries", llm.retries(), 0, 5);
  }

  private static final List<String> DATABASE_TYPES = List.of("duckdb", "jdbc", "postgres");

  /** An http(s) URL with a host and no fragment, or a refusal naming the key and an example. */
  private static void absoluteUrl(String key, String value, String example) {
    java.net.URI uri;
    try {
      uri = new java.net.URI(value);
    } catch (java.net.URISyntaxException e) {
      uri = null;
    }
    if (uri == null
        || !List.of("http", "https").contains(String.valueOf(uri.getScheme()))
        || uri.getHost() == null
        || uri.getRawFragment() != null) {
      throw new ConfigException(
          "configuration key '"
              + key
              + "' is '"
              + value
              + "'; it needs an absolute URL such as "
              + example);
    }
  }

  private static void validateDatabases(SondeConfig.DatabasesConfig databases) {
    range("databases.schemaWatchSeconds", databases.schemaWatchSeconds(), 1, 86400);
    if (!databases.defaultConnection().isEmpty()
        && !databases.connections().containsKey(databases.defaultConnection())) {
      throw new ConfigException(
          "configuration key 'databases.defaultConnection' names '"
              + databases.defaultConnection()
              + "', which is not among databases.connections "
              + databases.connections().keySet());
    }
    databases
        .connections()
        .forEach(
            (name, c) -> {
              String at = "databases.connections." + name + ".";
              if (!DATABASE_TYPES.contains(c.type())) {
                throw new ConfigException(
                    "configuration key '" + at + "type' must be one of " + DATABASE_TYPES);
              }
              if (!c.type().equals("duckdb") && c.url().isBlank()) {
                throw new ConfigException(
                    "configuration key '"
                        + at
                        + "url' needs a value for a "
                        + c.type()
                        + " connection");
              }
              if (c.type().equals("postgres") && !c.url().matches("(jdbc:)?postgres(ql)?://.*")) {
                throw new ConfigException(
                    "configuration key '"
                        + at
                        + "url' must look like postgresql://user@host:5432/database for a postgres"
                        + " connection");
              }
              if (!List.of("strict", "engine-only").contains(c.guard())) {
                throw new ConfigException(
                    "configuration key '" + at + "guard' must be strict or engine-only");
              }
              if (c.write() && c.readOnly()) {
                throw new ConfigException(
                    "configuration key '" + at + "write' needs readOnly: false as well");
              }
              c.accounts()
                  .forEach((account, identity) -> validateIdentity(at, c, account, identity));
              range(at + "maxRows", c.maxRows(), 1, 1_000_000);
              range(at + "maxChars", c.maxChars(), 100, 10_000_000);
              range(at + "maxSqlLength", c.maxSqlLength(), 100, 10_000_000);
              range(at + "queryTimeoutSeconds", c.queryTimeoutSeconds(), 1, 24 * 3600);
              range(at + "threads", c.threads(), 0, 1024);
              if (!c.memoryLimit().isEmpty()
                  && !c.memoryLimit()
                      .matches("(?i)\\d+(\\.\\d+)?\\s*(b|kb|mb|gb|tb|kib|mib|gib|tib)")) {
                throw new ConfigException(
                    "configuration key '"
                        + at
                        + "memoryLimit' must be a size such as 2GB or 512MiB, or empty for the"
                        + " default");
              }
            });
  }

  /**
   * One account's database identity: exactly one of a role (PostgreSQL), its own user (an engine
   * with users), or the tables it may read (an engine without either).
   */
  private static void validateIdentity(
      String at,
      SondeConfig.ConnectionConfig c,
      String account,
      SondeConfig.AccountIdentityConfig identity) {
    String key = at + "accounts." + account + ".";
    int kinds =
        (identity.role().isBlank() ? 0 : 1)
            + (identity.user().isBlank() ? 0 : 1)
            + (identity.tables().isEmpty() ? 0 : 1);
    if (kinds != 1) {
      throw new ConfigException(
          "configuration key '"
              + key.substring(0, key.length() - 1)
              + "' needs one of role (a PostgreSQL role its reads run as), user (with"
              + " passwordEnv: its own login) or tables (what it may read, on DuckDB or SQLite)");
    }
    boolean postgres = c.type().equals("postgres") || c.url().startsWith("jdbc:postgresql:");
    boolean rolesLess = c.type().equals("duckdb") || c.url().startsWith("jdbc:sqlite:");
    if (!identity.role().isBlank() && !postgres) {
      throw new ConfigException(
          "configuration key '" + key + "role' needs a PostgreSQL connection; use user here");
    }
    if (!identity.user().isBlank() && rolesLess) {
      throw new ConfigException(
          "configuration key '"
              + key
              + "user' needs an engine with logins; DuckDB and SQLite take tables: [schema.table]");
    }
    if (!identity.passwordEnv().isBlank() && identity.user().isBlank()) {
      throw new ConfigException("configuration key '" + key + "passwordEnv' goes with user");
    }
    if (!identity.tables().isEmpty() && !rolesLess) {
      throw new ConfigException(
          "configuration key '"
              + key
              + "tables' is for DuckDB and SQLite, which have no roles; let the database's grants"
              + " decide here (role or user)");
    }
    if (!identity.tables().isEmpty() && c.guard().equals("engine-only")) {
      throw new ConfigException(
          "configuration key '"
              + key
              + "tables' needs guard: strict, whose parse tree shows what a read names");
    }
    for (String table : identity.tables()) {
      if (!table.matches("[^.\\s]+(\\.[^.\\s]+){0,2}")) {
        throw new ConfigException(
            "configuration key '"
                + key
                + "tables' holds '"
                + table
                + "'; name tables as table, schema.table, schema.* or catalog.schema.table");
      }
    }
  }

  private static void validateTimeSeries(
      SondeConfig.TimeSeriesConfig timeseries, SondeConfig.DatabasesConfig databases) {
    range("timeseries.refreshSeconds", timeseries.refreshSeconds(), 1, 86400);
    try {
      java.time.ZoneId.of(timeseries.timezone());
    } catch (java.time.DateTimeException e) {
      throw new ConfigException(
          "configuration key 'timeseries.timezone' is not a timezone: '"
              + timeseries.timezone()
              + "' (use a region such as Asia/Seoul, or UTC)");
    }
    timeseries
        .tables()
        .forEach(
            (name, t) -> {
              String at = "timeseries.tables." + name + ".";
              if (!databases.connections().containsKey(t.connection())) {
                throw new ConfigException(
                    "configuration key '"
                        + at
                        + "connection' must name one of databases.connections "
                        + databases.connections().keySet());
              }
              for (String key : List.of("table", "tag", "time")) {
                String value =
                    switch (key) {
                      case "table" -> t.table();
                      case "tag" -> t.tag();
                      default -> t.time();
                    };
                if (value.isBlank()) {
                  throw new ConfigException("configuration key '" + at + key + "' needs a value");
                }
              }
              if (t.values().isEmpty()) {
                throw new ConfigException(
                    "configuration key '" + at + "values' needs at least one value column");
              }
            });
  }

  private static final List<String> DOCS_SOURCE_TYPES = List.of("markdown", "duckdb");

  private static void validateDocs(SondeConfig.DocsConfig docs) {
    range("docs.maxDocumentChars", docs.maxDocumentChars(), 1000, 10_000_000);
    range("docs.rescanMinutes", docs.rescanMinutes(), 1, 7 * 24 * 60);
    range("docs.refreshHours", docs.refreshHours(), 1, 365 * 24);
    range("docs.downloadTimeoutSeconds", docs.downloadTimeoutSeconds(), 1, 3600);
    if (docs.indexDir().isBlank()) {
      throw new ConfigException("configuration key 'docs.indexDir' needs a value");
    }
    docs.sources()
        .forEach(
            (name, s) -> {
              String at = "docs.sources." + name + ".";
              if (name.equals("sonde")) {
                throw new ConfigException(
                    "configuration key 'docs.sources.sonde': the name is taken by Sonde's own"
                        + " manual; choose another");
              }
              if (!DOCS_SOURCE_TYPES.contains(s.type())) {
                throw new ConfigException(
                    "configuration key '" + at + "type' must be one of " + DOCS_SOURCE_TYPES);
              }
              if (s.path().isBlank() && (s.type().equals("markdown") || s.url().isBlank())) {
                throw new ConfigException(
                    "configuration key '"
                        + at
                        + "path' needs a value"
                        + (s.type().equals("duckdb") ? " (or set url to download the file)" : ""));
              }
              if (!s.url().isBlank() && !s.url().matches("https?://.+")) {
                throw new ConfigException(
                    "configuration key '" + at + "url' must be an http:// or https:// address");
              }
              for (String entry : s.urlBases()) {
                if (!entry.contains("=")) {
                  throw new ConfigException(
                      "configuration key '"
                          + at
                          + "urlBases' entries look like prefix=base, e.g. blog/=https://duckdb.org/");
                }
              }
            });
  }

  private static void range(String key, int value, int min, int max) {
    if (value < min || value > max) {
      throw new ConfigException(
          "configuration key '"
              + key
              + "' is "
              + value
              + "; use a value from "
              + min
              + " to "
              + max);
    }
  }
}
