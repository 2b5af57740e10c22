package dev.sonde.config;

import java.util.List;
import java.util.Map;

/** The whole configuration, immutable, validated once at start. */
public record SondeConfig(
    ServerConfig server,
    McpConfig mcp,
    JobsConfig jobs,
    DataConfig data,
    ClusterConfig cluster,
    FamiliesConfig families,
    DatabasesConfig databases,
    DocsConfig docs,
    TimeSeriesConfig timeseries,
    ReportsConfig reports,
    DashboardsConfig dashboards,
    ChatBiConfig chatbi,
    AuthConfig auth) {

  /**
   * Who may call what. {@code mode} is {@code none} (every HTTP request is the local account),
   * {@code tokens} (every HTTP and WebSocket request signs in with an API token from {@code
   * tokensFile}, {@code <data>/tokens.json} when blank) or {@code oauth} (an access token of {@code
   * oauth.issuer}, or an API token); {@code localToolsets} are the toolsets of the local account
   * (stdio, and HTTP in mode none), {@code toolsets} the named sets of tools defined here beside
   * the shipped ones.
   */
  public record AuthConfig(
      String mode,
      String tokensFile,
      OAuthConfig oauth,
      LimitsConfig limits,
      List<String> localToolsets,
      Map<String, ToolsetConfig> toolsets,
      AuditConfig audit) {
    public static final String NONE = "none";
    public static final String TOKENS = "tokens";
    public static final String OAUTH = "oauth";

    /** Whether requests sign in (with API tokens, and in mode oauth access tokens too). */
    public boolean tokens() {
      return TOKENS.equals(mode) || OAUTH.equals(mode);
    }

    public boolean oauthOn() {
      return OAUTH.equals(mode);
    }

    /** The token file: {@code tokensFile}, or {@code tokens.json} in the data folder. */
    public java.nio.file.Path tokensFileIn(DataConfig data) {
      return tokensFile.isBlank()
          ? java.nio.file.Path.of(data.dir()).resolve("tokens.json")
          : java.nio.file.Path.of(tokensFile);
    }
  }

  /**
   * OAuth 2.1 access tokens (auth mode oauth): JWTs of {@code issuer} signed by a key of its JWKS
   * ({@code jwksUrl}, or found through the issuer's metadata when blank), for {@code resource}
   * (Sonde's URL as clients reach it, in their {@code aud}); the account is the claim {@code
   * accountClaim}.
   */
  public record OAuthConfig(String issuer, String jwksUrl, String resource, String accountClaim) {}

  /**
   * Fair use: tool calls one signed-in account may have running at once, and of those the long ones
   * (job tools); 0 for no limit. The local account has none.
   */
  public record LimitsConfig(int maxConcurrentCalls, int maxConcurrentJobs, int maxSessions) {}

  /** The audit trail: one line per tool call, kept {@code keepDays} and {@code keepMegabytes}. */
  public record AuditConfig(boolean enabled, int keepDays, int keepMegabytes) {}

  /** A toolset of your own: the tools it holds. */
  public record ToolsetConfig(String description, List<String> tools) {
    /** What an entry under {@code auth.toolsets} starts from before its own keys apply. */
    public static ToolsetConfig template() {
      return new ToolsetConfig("", List.of());
    }
  }

  /**
   * HTTP listener and the limits of every transport. {@code allowUnauthenticated} must be set to
   * bind anywhere but loopback while Sonde has no authentication; the timeouts close connections
   * that send nothing (idle), whose request head or body arrives too slowly.
   */
  public record ServerConfig(
      boolean enabled,
      String host,
      int port,
      boolean allowUnauthenticated,
      int eventLoops,
      int instances,
      List<String> allowedOrigins,
      int maxRequestBytes,
      int maxWebSocketMessageBytes,
      int keepAliveSeconds,
      int idleTimeoutSeconds,
      int headerTimeoutSeconds,
      int bodyTimeoutSeconds,
      int maxConnectionsPerPeer,
      int maxConnections,
      long maxBufferedBytes) {}

  /** Protocol engine: paging, sessions, defaults for calls. */
  public record McpConfig(
      int pageSize,
      int sessionIdleMinutes,
      int maxSessions,
      int toolTimeoutSeconds,
      String defaultLogLevel,
      String defaultAccount,
      boolean conformance,
      String requestStateSecret) {}

  /** Long work: its pool, the history kept for replay, and cancellation on disconnect. */
  public record JobsConfig(
      int workerPoolSize,
      int historyPerJob,
      int retainFinished,
      boolean cancelOnDisconnect,
      int taskTtlSeconds) {}

  /** Where Sonde keeps its files. */
  public record DataConfig(String dir) {}

  /** A clustered event bus; the seam for running several nodes. */
  public record ClusterConfig(boolean enabled) {}

  /** Extra tool families (verticle class names) deployed beside the built-in ones. */
  public record FamiliesConfig(List<String> extra) {}

  /** The named connections every database tool can target, and the one used when none is named. */
  public record DatabasesConfig(
      String defaultConnection,
      int schemaWatchSeconds,
      Map<String, ConnectionConfig> connections) {}

  /**
   * One named connection and its limits. Secrets never sit here: {@code passwordEnv} names the
   * environment variable that holds the password. {@code memoryLimit} and {@code threads} bound an
   * embedded DuckDB instance ("" and 0: a quarter of the machine's memory, half its cores).
   */
  public record ConnectionConfig(
      String type,
      String description,
      String url,
      String path,
      String user,
      String passwordEnv,
      boolean demo,
      int maxRows,
      int maxChars,
      int maxSqlLength,
      int queryTimeoutSeconds,
      boolean readOnly,
      boolean write,
      String guard,
      boolean rollups,
      String memoryLimit,
      int threads,
      Map<String, AccountIdentityConfig> accounts) {

    /** What an entry under {@code databases.connections} starts from before its own keys apply. */
    public static ConnectionConfig template() {
      return new ConnectionConfig(
          "duckdb", "", "", "", "", "", false, 1000, 4000, 65536, 30, true, false, "strict", false,
          "", 0, Map.of());
    }
  }

  /**
   * Who an account is to one connection (an entry of its {@code accounts}, {@code *} for every
   * account not named): a PostgreSQL {@code role} its reads set inside their transaction, its own
   * {@code user} (and {@code passwordEnv}), or, on engines without roles, the {@code tables} it may
   * read ({@code schema.table}, {@code schema.*}, {@code table}).
   */
  public record AccountIdentityConfig(
      String role, String user, String passwordEnv, List<String> tables) {
    /** What an entry under a connection's {@code accounts} starts from. */
    public static AccountIdentityConfig template() {
      return new AccountIdentityConfig("", "", "", List.of());
    }
  }

  /**
   * Documentation search: the Lucene index under {@code data.dir}, the limits of the reading tools
   * and the sources beside Sonde's own manual, which is always indexed.
   */
  public record DocsConfig(
      boolean enabled,
      String indexDir,
      int maxDocumentChars,
      int rescanMinutes,
      int refreshHours,
      int downloadTimeoutSeconds,
      Map<String, DocsSourceConfig> sources) {}

  /**
   * One documentation source: a folder of Markdown ({@code type: markdown}) or a DuckDB docs-search
   * database ({@code type: duckdb}, from {@code path} or downloaded from {@code url}). {@code
   * versions} maps sub-folders to version labels ({@code stable}, {@code stable-zh=stable}); {@code
   * urlBases} gives a path prefix its own URL base ({@code blog/=https://duckdb.org/}).
   */
  public record DocsSourceConfig(
      String type,
      String description,
      String path,
      String url,
      String version,
      String defaultVersion,
      List<String> versions,
      String urlBase,
      List<String> urlBases,
      List<String> include,
      List<String> exclude) {

    /** What an entry under {@code docs.sources} starts from before its own keys apply. */
    public static DocsSourceConfig template() {
      return new DocsSourceConfig(
          "markdown", "", "", "", "current", "", List.of(), "", List.of(), List.of(), List.of());
    }
  }

  /**
   * Tag tables and charts: the timezone times are shown in when a call names none, how often tag
   * lists and rollups catch up with new rows, and tag tables named by hand (beside those detected
   * by their shape).
   */
  public record TimeSeriesConfig(
      String timezone, int refreshSeconds, Map<String, TagTableConfig> tables) {}

  /**
   * A tag table named by hand: where it is and which columns hold the tag name, the time and the
   * values.
   */
  public record TagTableConfig(
      String connection, String table, String tag, String time, List<String> values) {

    /** What an entry under {@code timeseries.tables} starts from before its own keys apply. */
    public static TagTableConfig template() {
      return new TagTableConfig("", "", "", "", List.of());
    }
  }

  /** Analysis reports: the folder of custom templates ({@code C-*.yaml}), read at start. */
  public record ReportsConfig(String templates) {}

  /** Dashboards: the most panels one may hold, so no request makes a board too large to place. */
  public record DashboardsConfig(int maxPanels) {}

  /**
   * chat_bi: the folder of domain ontologies, the row cap and the time the EXPLAIN dry run and the
   * query may take, how long traces are kept (days, files), whether retrieval also matches by
   * meaning ({@code embeddings}: the embedding model, in a jar built with -Pembeddings), and an
   * optional model.
   */
  public record ChatBiConfig(
      String ontology,
      int rowCap,
      int explainTimeoutSeconds,
      int traceKeepDays,
      int traceKeepFiles,
      boolean embeddings,
      LlmConfig llm) {}

  /**
   * A chat model for chat_bi: {@code provider} none, openai (any /v1/chat/completions server) or
   * ollama (/api/chat); the API key is read from the environment variable {@code apiKeyEnv}, never
   * from this file; at most {@code retries} more answers after a refused or failed SQL.
   */
  public record LlmConfig(
      String provider,
      String baseUrl,
      String model,
      String apiKeyEnv,
      int timeoutSeconds,
      int retries) {}

  public static SondeConfig defaults() {
    return new SondeConfig(
        new ServerConfig(
            true,
            "127.0.0.1",
            8080,
            false,
            1,
            1,
            List.of(),
            4 * 1024 * 1024,
            4 * 1024 * 1024,
            15,
            120,
            10,
            30,
            256,
            4096,
            0),
        new McpConfig(50, 30, 10_000, 60, "info", "local", false, ""),
        new JobsConfig(8, 1000, 200, true, 3600),
        new DataConfig("data"),
        new ClusterConfig(false),
        new FamiliesConfig(List.of()),
        new DatabasesConfig(
            "demo",
            10,
            Map.of(
                "demo",
                new ConnectionConfig(
                    "duckdb",
                    "Demo retail shop (categories, products, stores, customers, orders, inventory)"
                        + " and time-series tag tables, generated on first start",
                    "",
                    "demo.duckdb",
                    "",
                    "",
                    true,
                    1000,
                    4000,
                    65536,
                    30,
                    true,
                    false,
                    "strict",
                    true,
                    "",
                    0,
                    Map.of()))),
        new DocsConfig(true, "docs-index", 20_000, 60, 48, 300, Map.of()),
        new TimeSeriesConfig("UTC", 30, Map.of()),
        new ReportsConfig("conf/report-templates"),
        new DashboardsConfig(200),
        new ChatBiConfig(
            "conf/ontology", 200, 5, 7, 1000, false, new LlmConfig("none", "", "", "", 60, 2)),
        new AuthConfig(
            AuthConfig.NONE,
            "",
            new OAuthConfig("", "", "", "sub"),
            new LimitsConfig(64, 8, 100),
            List.of("all"),
            Map.of(),
            new AuditConfig(true, 30, 100)));
  }
}
