package dev.sonde.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir Path dir;

  Path yaml(String text) throws IOException {
    Path file = dir.resolve("sonde.yaml");
    Files.writeString(file, text);
    return file;
  }

  static String failure(Path file, Map<String, String> env, Map<String, String> flags) {
    return assertThrows(ConfigException.class, () -> ConfigLoader.load(file, env, flags))
        .getMessage();
  }

  @Test
  void defaultsRunWithoutAFile() {
    SondeConfig config = ConfigLoader.load(null, Map.of(), Map.of());
    assertEquals(SondeConfig.defaults(), config);
    assertEquals("127.0.0.1", config.server().host());
  }

  @Test
  void chatBiMatchesByMeaningOnlyWhenAsked() {
    assertFalse(ConfigLoader.load(null, Map.of(), Map.of()).chatbi().embeddings());
    assertTrue(
        ConfigLoader.load(null, Map.of("SONDE_CHATBI_EMBEDDINGS", "true"), Map.of())
            .chatbi()
            .embeddings());
  }

  @Test
  void theShippedFileIsValidAndMatchesTheDefaults() {
    SondeConfig shipped = ConfigLoader.load(Path.of("conf/sonde.yaml"), Map.of(), Map.of());
    // beyond the defaults it only adds the DuckDB documentation beside the checkout
    assertEquals(java.util.Set.of("duckdb"), shipped.docs().sources().keySet());
    SondeConfig.DocsConfig docs = shipped.docs();
    SondeConfig withoutSources =
        new SondeConfig(
            shipped.server(),
            shipped.mcp(),
            shipped.jobs(),
            shipped.data(),
            shipped.cluster(),
            shipped.families(),
            shipped.databases(),
            new SondeConfig.DocsConfig(
                docs.enabled(),
                docs.indexDir(),
                docs.maxDocumentChars(),
                docs.rescanMinutes(),
                docs.refreshHours(),
                docs.downloadTimeoutSeconds(),
                Map.of()),
            shipped.timeseries(),
            shipped.reports(),
            shipped.dashboards(),
            shipped.chatbi(),
            shipped.auth());
    assertEquals(SondeConfig.defaults(), withoutSources);
  }

  private String refusal(String text) throws IOException {
    return failure(yaml(text), Map.of(), Map.of());
  }

  @Test
  void docsSourcesAreCheckedKeyByKey() throws IOException {
    assertEquals(
        "configuration key 'docs.sources.web.type' must be one of [markdown, duckdb]",
        refusal("docs:\n  sources:\n    web:\n      type: html\n      path: x\n"));
    assertEquals(
        "configuration key 'docs.sources.web.path' needs a value (or set url to download the"
            + " file)",
        refusal("docs:\n  sources:\n    web:\n      type: duckdb\n"));
    assertEquals(
        "configuration key 'docs.sources.sonde': the name is taken by Sonde's own manual; choose"
            + " another",
        refusal("docs:\n  sources:\n    sonde:\n      path: x\n"));
    assertEquals(
        "configuration key 'docs.sources.web.urlBases' entries look like prefix=base, e.g."
            + " blog/=https://duckdb.org/",
        refusal("docs:\n  sources:\n    web:\n      path: x\n      urlBases: [nope]\n"));
    assertTrue(
        refusal("docs:\n  sources:\n    web:\n      path: x\n      colour: red\n")
            .contains("unknown key 'docs.sources.web.colour'"));
  }

  @Test
  void flagsBeatEnvironmentBeatsFileBeatsDefaults() throws IOException {
    Path file =
        yaml(
            "server:\n  port: 1111\n  host: 0.0.0.0\n  allowUnauthenticated: true\n"
                + "jobs:\n  workerPoolSize: 3\n");
    Map<String, String> env =
        Map.of("SONDE_SERVER_PORT", "2222", "SONDE_JOBS_WORKER_POOL_SIZE", "5");
    SondeConfig fileOnly = ConfigLoader.load(file, Map.of(), Map.of());
    assertEquals(1111, fileOnly.server().port());
    SondeConfig withEnv = ConfigLoader.load(file, env, Map.of());
    assertEquals(2222, withEnv.server().port());
    assertEquals(5, withEnv.jobs().workerPoolSize());
    assertEquals("0.0.0.0", withEnv.server().host());
    SondeConfig withFlags = ConfigLoader.load(file, env, Map.of("server.port", "3333"));
    assertEquals(3333, withFlags.server().port());
    assertEquals(5, withFlags.jobs().workerPoolSize());
    assertEquals(60, withFlags.mcp().toolTimeoutSeconds());
  }

  @Test
  void environmentNamesFollowTheKeyPath() {
    assertEquals("SONDE_SERVER_PORT", ConfigLoader.envName("server.port"));
    assertEquals("SONDE_SERVER_MAX_REQUEST_BYTES", ConfigLoader.envName("server.maxRequestBytes"));
    assertEquals("SONDE_FAMILIES_EXTRA", ConfigLoader.envName("families.extra"));
  }

  @Test
  void listsComeFromCommaSeparatedEnvironmentValues() {
    SondeConfig config =
        ConfigLoader.load(
            null,
            Map.of("SONDE_SERVER_ALLOWED_ORIGINS", "https://a.example, https://b.example"),
            Map.of());
    assertEquals(
        List.of("https://a.example", "https://b.example"), config.server().allowedOrigins());
  }

  @Test
  void anUnknownKeyIsNamedWithTheKnownOnes() throws IOException {
    String message = failure(yaml("server:\n  prot: 8080\n"), Map.of(), Map.of());
    assertEquals(
        true, message.contains("unknown key 'server.prot'") && message.contains("port"), message);
    assertEquals(
        true,
        failure(yaml("sever:\n  port: 1\n"), Map.of(), Map.of()).contains("unknown key 'sever'"));
    assertEquals(true, failure(null, Map.of(), Map.of("server.prot", "1")).contains("server.prot"));
  }

  @Test
  void aWrongTypeNamesTheKeyAndTheExpectedType() throws IOException {
    assertEquals(
        "configuration key 'server.port' has the wrong type: expected a whole number",
        failure(yaml("server:\n  port: eighty\n"), Map.of(), Map.of()));
    assertEquals(
        "configuration key 'jobs.cancelOnDisconnect' has the wrong type: expected true or false",
        failure(null, Map.of("SONDE_JOBS_CANCEL_ON_DISCONNECT", "maybe"), Map.of()));
    assertEquals(
        "configuration key 'server.port' has the wrong type: expected a whole number",
        failure(yaml("server:\n  port: 80.5\n"), Map.of(), Map.of()));
    assertEquals(
        true,
        failure(yaml("server: 8080\n"), Map.of(), Map.of()).contains("'server' must be a mapping"));
  }

  @Test
  void aMissingValueIsNamed() throws IOException {
    assertEquals(
        "configuration key 'server.host' needs a value",
        failure(yaml("server:\n  host:\n"), Map.of(), Map.of()));
    assertEquals(
        "configuration key 'data.dir' needs a value",
        failure(yaml("data:\n  dir: ''\n"), Map.of(), Map.of()));
  }

  @Test
  void outOfRangeValuesSayWhatIsAllowed() {
    assertEquals(
        "configuration key 'server.port' is 70000; use a value from 0 to 65535",
        failure(null, Map.of(), Map.of("server.port", "70000")));
    assertEquals(
        true,
        failure(null, Map.of(), Map.of("mcp.defaultLogLevel", "loud"))
            .contains("mcp.defaultLogLevel"));
    assertEquals(
        true,
        failure(null, Map.of(), Map.of("cluster.enabled", "true")).contains("cluster.enabled"));
  }

  @Test
  void aBindBeyondLoopbackNeedsTokensOrAnExplicitYes() {
    for (String host : List.of("0.0.0.0", "::", "192.0.2.10")) {
      String refused = failure(null, Map.of(), Map.of("server.host", host));
      assertTrue(refused.contains("not a loopback address"), refused);
      assertTrue(refused.contains("auth.mode: tokens"), refused);
      assertTrue(refused.contains("server.allowUnauthenticated"), refused);
      assertEquals(
          host,
          ConfigLoader.load(null, Map.of(), Map.of("server.host", host, "auth.mode", "tokens"))
              .server()
              .host());
    }
    String issuer =
        failure(
            null, Map.of(), Map.of("auth.mode", "oauth", "auth.oauth.issuer", "login.example.com"));
    assertTrue(issuer.contains("'auth.oauth.issuer'") && issuer.contains("absolute URL"), issuer);
    String mode = failure(null, Map.of(), Map.of("auth.mode", "ldap"));
    assertTrue(mode.contains("'auth.mode' is 'ldap'; use none") && mode.contains("tokens"), mode);
    for (String host : List.of("127.0.0.1", "localhost", "::1", "127.0.0.2")) {
      assertEquals(
          host, ConfigLoader.load(null, Map.of(), Map.of("server.host", host)).server().host());
    }
    assertEquals(
        "0.0.0.0",
        ConfigLoader.load(
                null,
                Map.of("SONDE_SERVER_ALLOW_UNAUTHENTICATED", "true"),
                Map.of("server.host", "0.0.0.0"))
            .server()
            .host());
    // a server that does not listen binds nothing
    assertEquals(
        "0.0.0.0",
        ConfigLoader.load(
                null, Map.of(), Map.of("server.host", "0.0.0.0", "server.enabled", "false"))
            .server()
            .host());
  }

  @Test
  void theDashboardPanelLimitIsCheckedAndCanBeRaised() {
    assertEquals(200, ConfigLoader.load(null, Map.of(), Map.of()).dashboards().maxPanels());
    assertEquals(
        "configuration key 'dashboards.maxPanels' is 0; use a value from 1 to 10000",
        failure(null, Map.of(), Map.of("dashboards.maxPanels", "0")));
    assertEquals(
        500,
        ConfigLoader.load(null, Map.of("SONDE_DASHBOARDS_MAX_PANELS", "500"), Map.of())
            .dashboards()
            .maxPanels());
  }

  @Test
  void brokenYamlSaysWhere() throws IOException {
    assertEquals(
        true,
        failure(yaml("server:\n  port: [1,\n"), Map.of(), Map.of()).contains("not valid YAML"));
  }

  @Test
  void namedConnectionsStartFromTheTemplateAndTakeOverridesByName() throws IOException {
    Path file =
        yaml(
            "databases:\n  defaultConnection: shop\n  connections:\n    shop:\n      type: jdbc\n"
                + "      url: jdbc:sqlite:/tmp/shop.db\n      maxRows: 50\n");
    SondeConfig config =
        ConfigLoader.load(
            file, Map.of("SONDE_DATABASES_CONNECTIONS_SHOP_MAX_CHARS", "900"), Map.of());
    SondeConfig.ConnectionConfig shop = config.databases().connections().get("shop");
    assertEquals("jdbc", shop.type());
    assertEquals(50, shop.maxRows());
    assertEquals(900, shop.maxChars());
    assertEquals(30, shop.queryTimeoutSeconds(), "from the template");
    assertEquals(true, shop.readOnly());
    assertEquals(
        true, config.databases().connections().containsKey("demo"), "the demo connection stays");
    assertEquals(
        70,
        ConfigLoader.load(file, Map.of(), Map.of("databases.connections.shop.maxRows", "70"))
            .databases()
            .connections()
            .get("shop")
            .maxRows());
  }

  @Test
  void accountIdentitiesComeFromTheFileOrFlagsAndEachMistakeIsNamed() throws IOException {
    Path file =
        yaml(
            "databases:\n  connections:\n    wh:\n      type: postgres\n"
                + "      url: postgresql://h/db\n      accounts:\n"
                + "        alice.smith: { role: analyst }\n        '*': { user: guest }\n");
    SondeConfig.ConnectionConfig wh =
        ConfigLoader.load(file, Map.of(), Map.of("databases.connections.wh.accounts.bob.role", "b"))
            .databases()
            .connections()
            .get("wh");
    assertEquals("analyst", wh.accounts().get("alice.smith").role());
    assertEquals("guest", wh.accounts().get("*").user());
    assertEquals("b", wh.accounts().get("bob").role(), "a flag adds an account");
    Map<String, String> duck = Map.of("databases.connections.d.type", "duckdb");
    assertTrue(
        failure(null, Map.of(), with(duck, "databases.connections.d.accounts.a.role", "r"))
            .contains("role' needs a PostgreSQL connection"));
    assertTrue(
        failure(null, Map.of(), with(duck, "databases.connections.d.accounts.a.user", "u"))
            .contains("DuckDB and SQLite take tables"));
    assertTrue(
        failure(null, Map.of(), with(duck, "databases.connections.d.accounts.a.passwordEnv", "P"))
            .contains("needs one of role"));
    Map<String, String> listed = with(duck, "databases.connections.d.accounts.a.tables", "t");
    assertTrue(
        failure(null, Map.of(), with(listed, "databases.connections.d.guard", "engine-only"))
            .contains("needs guard: strict"));
    assertTrue(
        failure(null, Map.of(), with(listed, "databases.connections.d.accounts.a.role", "r"))
            .contains("needs one of role"));
    assertTrue(
        failure(
                null,
                Map.of(),
                with(
                    Map.of(
                        "databases.connections.w.type", "postgres",
                        "databases.connections.w.url", "postgresql://h/db"),
                    "databases.connections.w.accounts.a.tables",
                    "t"))
            .contains("tables' is for DuckDB and SQLite"));
    assertTrue(
        failure(null, Map.of(), with(duck, "databases.connections.d.accounts.a.tables", "a..b"))
            .contains("name tables as table, schema.table"));
  }

  private static Map<String, String> with(Map<String, String> base, String key, String value) {
    Map<String, String> out = new java.util.HashMap<>(base);
    out.put(key, value);
    return out;
  }

  @Test
  void connectionMistakesAreNamed() throws IOException {
    assertEquals(
        true,
        failure(yaml("databases:\n  connections:\n    shop:\n      typo: 1\n"), Map.of(), Map.of())
            .contains("unknown key 'databases.connections.shop.typo'"));
    assertEquals(
        "configuration key 'databases.connections.shop.url' needs a value for a postgres connection",
        failure(
            yaml("databases:\n  connections:\n    shop:\n      type: postgres\n"),
            Map.of(),
            Map.of()));
    assertEquals(
        "configuration key 'databases.connections.shop.url' must look like"
            + " postgresql://user@host:5432/database for a postgres connection",
        failure(
            yaml(
                "databases:\n  connections:\n    shop:\n      type: postgres\n"
                    + "      url: jdbc:mysql://db/shop\n"),
            Map.of(),
            Map.of()));
    assertEquals(
        true,
        failure(
                yaml("databases:\n  connections:\n    shop:\n      type: oracle\n"),
                Map.of(),
                Map.of())
            .contains("databases.connections.shop.type"));
    assertEquals(
        true,
        failure(yaml("databases:\n  defaultConnection: nope\n"), Map.of(), Map.of())
            .contains("'nope', which is not among databases.connections"));
    assertEquals(
        true,
        failure(
                yaml("databases:\n  connections:\n    demo:\n      write: true\n"),
                Map.of(),
                Map.of())
            .contains("readOnly: false"));
  }
}
