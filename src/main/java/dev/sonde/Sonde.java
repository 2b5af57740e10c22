package dev.sonde;

import dev.sonde.auth.ApiTokens;
import dev.sonde.auth.AuditTrail;
import dev.sonde.auth.BearerTokens;
import dev.sonde.auth.OAuthTokens;
import dev.sonde.auth.Principal;
import dev.sonde.auth.TokenCommand;
import dev.sonde.auth.Toolsets;
import dev.sonde.chatbi.ChatBi;
import dev.sonde.chatbi.OntologyBootstrap;
import dev.sonde.config.ConfigException;
import dev.sonde.config.ConfigLoader;
import dev.sonde.config.SondeConfig;
import dev.sonde.conformance.ConformanceFamilyVerticle;
import dev.sonde.conformance.ConformancePrompts;
import dev.sonde.conformance.ConformanceResources;
import dev.sonde.core.HostPaths;
import dev.sonde.dashboard.DashboardFamilyVerticle;
import dev.sonde.dashboard.Dashboards;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.docs.DocsFamilyVerticle;
import dev.sonde.docs.DocsIndexing;
import dev.sonde.docs.DocsLibrary;
import dev.sonde.docs.DocsResources;
import dev.sonde.docs.ToolReference;
import dev.sonde.forecast.TableForecasts;
import dev.sonde.jobs.JobRegistry;
import dev.sonde.mcp.McpServer;
import dev.sonde.mcp.ServerInfo;
import dev.sonde.mcp.SessionStore;
import dev.sonde.mcp.ToolRegistry;
import dev.sonde.report.AnalysisReports;
import dev.sonde.report.ReportTemplates;
import dev.sonde.schema.DatabasePrompts;
import dev.sonde.schema.SchemaResources;
import dev.sonde.timeseries.Charts;
import dev.sonde.timeseries.TagTables;
import dev.sonde.tools.FamilyAsks;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import dev.sonde.tools.PromptProvider;
import dev.sonde.tools.ResourceProvider;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolResultCodec;
import dev.sonde.web.ConnectionLimits;
import dev.sonde.web.DashboardsApi;
import dev.sonde.web.JobsApi;
import dev.sonde.web.OriginGuard;
import dev.sonde.web.RequestAuthentication;
import dev.sonde.web.StdioTransport;
import dev.sonde.web.StreamableHttpTransport;
import dev.sonde.web.WebServerVerticle;
import dev.sonde.web.WebSocketTransport;
import dev.sonde.workspace.Workspaces;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Entry point: loads the configuration, starts Vert.x, deploys the families and transports. */
public final class Sonde {
  static final String USAGE =
      """
      usage: java -jar sonde.jar [--config FILE] [--port N] [--host H] [--stdio] [--conformance] [--demo-reset]
                                 [--bootstrap-ontology CONNECTION]
        --config FILE   configuration file (default: conf/sonde.yaml when it exists)
        --port N        HTTP port (0 picks a free one); overrides server.port
        --host H        address to bind; overrides server.host
        --stdio         speak MCP on stdin/stdout (HTTP stays off unless --port is given)
        --conformance   serve the fixtures of the MCP conformance suite (testing only)
        --demo-reset    delete and regenerate the demo database, then exit
        --bootstrap-ontology CONNECTION
                        write a chat_bi domain for CONNECTION from its catalog into the
                        chatbi.ontology folder (as CONNECTION.yaml, to edit), then exit
      every configuration key can also be set from the environment, e.g. SONDE_SERVER_PORT=9090
      API tokens (auth.mode: tokens): java -jar sonde.jar token create|list|revoke (token --help)
      """;
  static final String INSTRUCTIONS =
      "Sonde explores, queries, charts and forecasts databases safely. Start with get_version or"
          + " health_check to see what is available; long tools report progress and can run as"
          + " tasks. Tool errors say what to change: fix the arguments and call again.";
  private static final Logger LOG = LoggerFactory.getLogger(Sonde.class);

  private final Vertx vertx;
  private final McpServer server;
  private final JobRegistry jobs;
  private final DatabaseRegistry databases;
  private final DocsLibrary docs;
  private final DocsIndexing indexing;
  private final int port;

  private Sonde(
      Vertx vertx,
      McpServer server,
      JobRegistry jobs,
      DatabaseRegistry databases,
      DocsLibrary docs,
      DocsIndexing indexing,
      int port) {
    this.vertx = vertx;
    this.server = server;
    this.jobs = jobs;
    this.databases = databases;
    this.docs = docs;
    this.indexing = indexing;
    this.port = port;
  }

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("token")) {
      System.exit(token(List.of(args).subList(1, args.length)));
      return;
    }
    Map<String, String> flags = new LinkedHashMap<>();
    Path configFile;
    boolean stdio;
    boolean demoReset;
    String bootstrapOntology;
    try {
      configFile = parseArgs(args, flags);
      stdio = "true".equals(flags.remove("stdio"));
      demoReset = "true".equals(flags.remove("demoReset"));
      bootstrapOntology = flags.remove("bootstrapOntology");
      if (stdio && !flags.containsKey("server.port")) {
        flags.put("server.enabled", "false");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("sonde: " + e.getMessage());
      System.err.print(USAGE);
      System.exit(2);
      return;
    }
    SondeConfig config;
    try {
      config = ConfigLoader.load(configFile, System.getenv(), flags);
    } catch (ConfigException e) {
      System.err.println("sonde: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (demoReset) {
      try {
        DatabaseRegistry.resetDemo(config);
        System.exit(0);
      } catch (Exception e) {
        System.err.println("sonde: the demo database could not be rebuilt: " + e.getMessage());
        System.exit(1);
      }
      return;
    }
    if (bootstrapOntology != null) {
      System.exit(bootstrapOntology(config, bootstrapOntology));
      return;
    }
    // stdout belongs to the protocol in stdio mode; nothing else may write there
    PrintStream protocolOut = System.out;
    if (stdio) {
      System.setOut(System.err);
    }
    start(config)
        .onSuccess(
            sonde -> {
              if (stdio) {
                sonde.serveStdio(protocolOut);
              }
              Runtime.getRuntime()
                  .addShutdownHook(new Thread(sonde::closeBeforeExit, "sonde-shutdown"));
            })
        .onFailure(
            e -> {
              String reason =
                  e instanceof java.net.BindException
                      ? config.server().host()
                          + ":"
                          + config.server().port()
                          + " is already in use; choose another port with --port or SONDE_SERVER_PORT"
                      : e.getMessage();
              LOG.error("Sonde could not start: {}", reason);
              System.exit(1);
            });
  }

  /** {@code token create|list|revoke [--config FILE]}; the exit status. */
  private static int token(List<String> args) {
    List<String> rest = new ArrayList<>(args);
    int at = rest.indexOf("--config");
    try {
      Path file = null;
      if (at >= 0) {
        file = Path.of(value(rest.toArray(String[]::new), at + 1, "--config"));
        rest.subList(at, at + 2).clear();
      }
      String[] configArgs =
          file == null ? new String[0] : new String[] {"--config", file.toString()};
      SondeConfig config =
          ConfigLoader.load(
              parseArgs(configArgs, new LinkedHashMap<>()), System.getenv(), Map.of());
      return TokenCommand.run(rest, config, System.out, System.err);
    } catch (IllegalArgumentException | ConfigException e) {
      System.err.println("sonde token: " + e.getMessage());
      System.err.print(TokenCommand.USAGE);
      return 2;
    }
  }

  /** Writes a bootstrapped chat_bi domain for {@code connection}; the exit status. */
  private static int bootstrapOntology(SondeConfig config, String connection) {
    Vertx vertx = Vertx.vertx();
    try {
      Path saved =
          DatabaseRegistry.open(vertx, config, null)
              .compose(databases -> databases.ready().map(v -> databases))
              .compose(
                  databases ->
                      OntologyBootstrap.into(
                          databases.own(connection),
                          connection,
                          Path.of(config.chatbi().ontology())))
              .toCompletionStage()
              .toCompletableFuture()
              .get();
      System.err.println("sonde: wrote " + saved + "; edit it, then ask chat_bi");
      return 0;
    } catch (Exception e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      System.err.println("sonde: no ontology written: " + cause.getMessage());
      return 1;
    } finally {
      vertx.close();
    }
  }

  /** Parses flags into configuration overrides; returns the configuration file to read. */
  static Path parseArgs(String[] args, Map<String, String> flags) {
    Path file = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--config" -> file = Path.of(value(args, ++i, arg));
        case "--port" -> flags.put("server.port", value(args, ++i, arg));
        case "--host" -> flags.put("server.host", value(args, ++i, arg));
        case "--stdio" -> flags.put("stdio", "true");
        case "--conformance" -> flags.put("mcp.conformance", "true");
        case "--demo-reset" -> flags.put("demoReset", "true");
        case "--bootstrap-ontology" -> flags.put("bootstrapOntology", value(args, ++i, arg));
        case "--help", "-h" -> {
          System.out.print(USAGE);
          System.exit(0);
        }
        default -> throw new IllegalArgumentException("unknown option " + arg);
      }
    }
    if (file == null && Files.exists(Path.of("conf/sonde.yaml"))) {
      file = Path.of("conf/sonde.yaml");
    }
    if (file != null && !Files.isRegularFile(file)) {
      throw new IllegalArgumentException("no configuration file at " + file);
    }
    return file;
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length || args[i].startsWith("--")) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args[i];
  }

  /** Starts a Sonde with this configuration; the future completes once it listens. */
  public static Future<Sonde> start(SondeConfig config) {
    VertxOptions options = new VertxOptions();
    if (config.server().eventLoops() > 0) {
      options.setEventLoopPoolSize(config.server().eventLoops());
    }
    Vertx vertx = Vertx.vertx(options);
    vertx.eventBus().registerDefaultCodec(ToolResult.class, new ToolResultCodec());
    // resolved here, on the caller's thread: a name lookup must not block an event loop
    ConfigLoader.Bind bind = ConfigLoader.bind(config.server().host());
    JobRegistry jobs =
        new JobRegistry(
            vertx,
            config.jobs().historyPerJob(),
            config.jobs().retainFinished(),
            HostPaths.of(config.data().dir()));
    // a promise of no context: a failed start closes Vert.x, and the failure must still reach
    // the caller once the event loop it was found on has stopped
    Promise<Sonde> started = Promise.promise();
    // a first start listens while the demo data is generated: the job view shows its steps
    DatabaseRegistry.open(vertx, config, jobs)
        .compose(databases -> start(vertx, config, databases, jobs, bind))
        .onComplete(
            outcome -> {
              if (outcome.succeeded()) {
                started.complete(outcome.result());
              } else {
                vertx.close().onComplete(closed -> started.fail(outcome.cause()));
              }
            });
    return started.future();
  }

  private static Future<Sonde> start(
      Vertx vertx,
      SondeConfig config,
      DatabaseRegistry databases,
      JobRegistry jobs,
      ConfigLoader.Bind bind) {
    Instant startedAt = Instant.now();
    TagTables tagTables = new TagTables(vertx, config);
    Workspaces workspaces = new Workspaces(Path.of(config.data().dir()).resolve("workspace"));
    FamilyAsks asks = new FamilyAsks(vertx);
    FamilyServices services = new FamilyServices(config, jobs, databases, workspaces, asks);
    Charts charts = new Charts(databases, tagTables);
    TableForecasts forecasts = new TableForecasts(databases, asks);
    Dashboards dashboards =
        new Dashboards(
            FamilyVerticle.pool(
                vertx, DashboardFamilyVerticle.FAMILY, config.jobs().workerPoolSize()),
            asks,
            config.dashboards().maxPanels());
    List<ResourceProvider> resources = new ArrayList<>();
    List<PromptProvider> prompts = new ArrayList<>();
    resources.add(new SchemaResources(vertx, config, databases));
    prompts.add(new DatabasePrompts(databases));
    List<FamilyVerticle> families = new ArrayList<>();
    DocsLibrary docs =
        config.docs().enabled()
            ? new DocsLibrary(
                config,
                () ->
                    ToolReference.markdown(
                        families.stream().flatMap(f -> f.specs().stream()).toList()))
            : null;
    families.addAll(
        Families.of(
            services,
            new Families.Engines(
                startedAt,
                tagTables,
                charts,
                dashboards,
                forecasts,
                new AnalysisReports(
                    databases, asks, new ReportTemplates(Path.of(config.reports().templates()))),
                new ChatBi(
                    vertx,
                    databases,
                    config.chatbi(),
                    Path.of(config.data().dir()),
                    System.getenv()),
                docs)));
    if (docs != null) {
      resources.add(
          new DocsResources(
              FamilyVerticle.pool(vertx, DocsFamilyVerticle.FAMILY, config.jobs().workerPoolSize()),
              docs));
    }
    if (config.mcp().conformance()) {
      families.add(new ConformanceFamilyVerticle(services));
      resources.add(new ConformanceResources());
      prompts.add(new ConformancePrompts());
    }
    try {
      for (String className : config.families().extra()) {
        families.add(extraFamily(className, services));
      }
    } catch (ConfigException e) {
      return Future.failedFuture(e);
    }
    ToolRegistry tools = new ToolRegistry();
    families.forEach(f -> tools.register(f.family(), f.specs()));
    Toolsets toolsets;
    Principal local;
    RequestAuthentication authentication;
    try {
      toolsets = toolsets(config, tools);
      local = localPrincipal(config, toolsets);
      authentication =
          config.auth().tokens()
              ? RequestAuthentication.tokens(
                  BearerTokens.watch(
                      vertx, new ApiTokens(config.auth().tokensFileIn(config.data())), toolsets),
                  config.auth().oauthOn()
                      ? OAuthTokens.start(
                          vertx,
                          new OAuthTokens.Settings(
                              config.auth().oauth().issuer(),
                              config.auth().oauth().jwksUrl(),
                              config.auth().oauth().resource(),
                              config.auth().oauth().accountClaim()),
                          toolsets)
                      : null)
              : RequestAuthentication.none(local);
    } catch (ConfigException e) {
      return Future.failedFuture(e);
    } catch (IOException e) {
      return Future.failedFuture(new ConfigException("auth.tokensFile: " + e.getMessage()));
    }
    ServerInfo info = new ServerInfo("sonde", "Sonde", versionOf(), INSTRUCTIONS);
    McpServer server =
        new McpServer(
            vertx,
            config,
            new SessionStore(
                local,
                config.mcp().defaultLogLevel(),
                config.mcp().maxSessions(),
                config.auth().limits().maxSessions()),
            tools,
            resources,
            prompts,
            info,
            config.auth().audit().enabled()
                ? AuditTrail.in(
                    vertx,
                    Path.of(config.data().dir()).resolve("audit"),
                    config.auth().audit().keepDays(),
                    config.auth().audit().keepMegabytes() * 1024L * 1024L,
                    (connection, account) -> databaseRole(databases, connection, account))
                : AuditTrail.off());
    if (config.auth().tokens()) {
      // a revoked or expired token's sessions, sockets and streams end within a second
      vertx.setPeriodic(1000, id -> server.signOut(p -> !authentication.stillSignedIn(p)));
    }
    Future<Void> deployed = Future.succeededFuture();
    for (FamilyVerticle family : families) {
      deployed = deployed.compose(v -> vertx.deployVerticle(family).mapEmpty());
    }
    DocsLibrary library = docs;
    DocsIndexing indexing =
        library == null
            ? null
            : new DocsIndexing(
                vertx,
                library,
                jobs,
                FamilyVerticle.pool(
                    vertx, DocsFamilyVerticle.FAMILY, config.jobs().workerPoolSize()));
    if (indexing != null) {
      deployed =
          deployed.map(
              v -> {
                indexing.start(config.docs().rescanMinutes());
                return v;
              });
    }
    AtomicReference<Integer> port = new AtomicReference<>(-1);
    if (config.server().enabled()) {
      deployed =
          deployed.compose(
              v ->
                  startWeb(
                          vertx,
                          config,
                          bind.address(),
                          authentication,
                          server,
                          jobs,
                          new DashboardsApi(
                              asks,
                              workspaces,
                              FamilyVerticle.pool(vertx, "web", config.jobs().workerPoolSize()),
                              config.mcp().toolTimeoutSeconds() * 1000L))
                      .map(
                          p -> {
                            port.set(p);
                            return null;
                          }));
    }
    return deployed.map(
        v -> {
          if (port.get() >= 0) {
            LOG.info(
                "Sonde {} listening on http://{}:{}/ (MCP at /mcp and /mcp/ws)",
                info.version(),
                config.server().host(),
                port.get());
            if (!bind.loopback() && !config.auth().tokens()) {
              LOG.warn(
                  "server.allowUnauthenticated: anyone who reaches {}:{} can call every tool on"
                      + " every connection and read the workspace; there is no authentication",
                  config.server().host(),
                  port.get());
            }
          }
          databases
              .ready()
              .onComplete(
                  r ->
                      LOG.info(
                          "Sonde ready: {}",
                          databases.names().stream()
                              .map(n -> n + (databases.isOpen(n) ? " open" : " not available"))
                              .toList()));
          return new Sonde(vertx, server, jobs, databases, library, indexing, port.get());
        });
  }

  private static Future<Integer> startWeb(
      Vertx vertx,
      SondeConfig config,
      String bindAddress,
      RequestAuthentication authentication,
      McpServer server,
      JobRegistry jobs,
      DashboardsApi dashboardsApi) {
    OriginGuard guard = new OriginGuard(config.server().allowedOrigins());
    ConnectionLimits limits = new ConnectionLimits(config.server());
    StreamableHttpTransport http = new StreamableHttpTransport(vertx, server, config, limits);
    WebSocketTransport webSocket =
        new WebSocketTransport(
            vertx,
            server,
            limits,
            config.server().maxWebSocketMessageBytes(),
            config.server().keepAliveSeconds() * 1000L);
    JobsApi jobsApi =
        new JobsApi(vertx, jobs, config.server().keepAliveSeconds() * 1000L, authentication);
    int requested = config.server().port();
    if (requested != 0) {
      guard.bind(requested);
    }
    AtomicReference<WebServerVerticle> first = new AtomicReference<>();
    return vertx
        .deployVerticle(
            () -> {
              WebServerVerticle verticle =
                  new WebServerVerticle(
                      config,
                      bindAddress,
                      requested,
                      guard,
                      authentication,
                      limits,
                      http,
                      webSocket,
                      jobsApi,
                      dashboardsApi);
              first.compareAndSet(null, verticle);
              return verticle;
            },
            new DeploymentOptions().setInstances(config.server().instances()))
        .map(
            id -> {
              int actual = first.get().actualPort();
              guard.bind(actual);
              return actual;
            });
  }

  /**
   * The shipped toolsets and the configured ones; a configured one that names a tool no deployed
   * family serves stops the start with what to change.
   */
  private static Toolsets toolsets(SondeConfig config, ToolRegistry tools) {
    Map<String, List<String>> custom = new LinkedHashMap<>();
    config.auth().toolsets().forEach((name, set) -> custom.put(name, set.tools()));
    Set<String> known = new HashSet<>();
    tools.namesByFamily().values().forEach(known::addAll);
    try {
      return new Toolsets(custom, known);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  /** The role or user an account's reads run as on a connection, or null for its login. */
  private static String databaseRole(
      DatabaseRegistry databases, String connection, String account) {
    try {
      return databases.get(connection, account).databaseRole();
    } catch (RuntimeException e) {
      // an unknown connection or an account without an identity there: the call says why
      return null;
    }
  }

  /** The local account with its configured toolsets (stdio, and HTTP in auth mode none). */
  private static Principal localPrincipal(SondeConfig config, Toolsets toolsets) {
    try {
      return new Principal(
          config.mcp().defaultAccount(), toolsets.grant(config.auth().localToolsets()));
    } catch (IllegalArgumentException e) {
      throw new ConfigException("auth.localToolsets: " + e.getMessage());
    }
  }

  private static FamilyVerticle extraFamily(String className, FamilyServices services) {
    try {
      Class<?> type = Class.forName(className);
      return (FamilyVerticle) type.getConstructor(FamilyServices.class).newInstance(services);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new ConfigException(
          "configuration key 'families.extra': "
              + className
              + " is not a tool family with a (FamilyServices) constructor");
    }
  }

  private static String versionOf() {
    String version = Sonde.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }

  /** Serves MCP on stdin/stdout until stdin closes, then stops the process. */
  void serveStdio(PrintStream out) {
    // exit from a thread of its own: the shutdown hook needs the event loop to close Vert.x
    new StdioTransport(server, vertx.getOrCreateContext(), System.in, out)
        .start(() -> new Thread(() -> System.exit(0), "sonde-exit").start());
  }

  private void closeBeforeExit() {
    try {
      close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("Sonde did not stop cleanly: {}", e.getMessage());
    }
  }

  private void closeDocs() {
    if (docs != null) {
      try {
        docs.close();
      } catch (IOException e) {
        LOG.warn("the documentation index did not close cleanly: {}", e.getMessage());
      }
    }
  }

  /** The documentation library, or null when docs are disabled. */
  public DocsLibrary docs() {
    return docs;
  }

  public int port() {
    return port;
  }

  public Vertx vertx() {
    return vertx;
  }

  public McpServer server() {
    return server;
  }

  public JobRegistry jobs() {
    return jobs;
  }

  public DatabaseRegistry databases() {
    return databases;
  }

  public Future<Void> close() {
    // listeners hear the end as a result, not as a dropped connection
    server.stop();
    // background work ends first, at its next step: a pool shut under it would interrupt its files
    Future<Void> background = indexing == null ? Future.succeededFuture() : indexing.stop();
    databases.stopGenerating();
    // a promise of no context: what Vert.x completes while it closes reaches the caller still
    Promise<Void> closed = Promise.promise();
    background
        .eventually(databases::ready)
        .eventually(server::flushAudit)
        .onComplete(
            ended ->
                vertx
                    .close()
                    .onComplete(
                        v -> {
                          databases.close();
                          closeDocs();
                          closed.handle(v);
                        }));
    return closed.future();
  }
}
