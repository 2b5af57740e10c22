package dev.sonde.db;

import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@code type: postgres} connection's address, {@code postgresql://[user[:password]@]host[:port]
 * /database[?sslmode=…]} (or the same behind {@code jdbc:}), read once for both of its clients: the
 * reactive one that runs queries and the JDBC one that reads the catalog.
 */
record PostgresUrl(
    String host, int port, String database, String user, String password, String sslMode) {
  private static final List<String> PARAMETERS = List.of("user", "password", "sslmode");

  /**
   * Reads {@code url}; {@code user} and {@code password} from the configuration win over the URL's.
   */
  static PostgresUrl parse(String url, String user, String password) {
    String text = url.startsWith("jdbc:") ? url.substring(5) : url;
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw invalid(url, "it is not a URL (" + e.getReason() + ")");
    }
    if (!"postgresql".equals(uri.getScheme()) && !"postgres".equals(uri.getScheme())) {
      throw invalid(url, "it must start with postgresql://");
    }
    if (uri.getHost() == null) {
      throw invalid(url, "it names no host");
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    String database = decode(path.startsWith("/") ? path.substring(1) : path);
    Map<String, String> query = new LinkedHashMap<>();
    if (uri.getRawQuery() != null) {
      for (String pair : uri.getRawQuery().split("&")) {
        int eq = pair.indexOf('=');
        String key = decode(eq < 0 ? pair : pair.substring(0, eq));
        if (!PARAMETERS.contains(key)) {
          throw invalid(url, "parameter '" + key + "' is not supported; use " + PARAMETERS);
        }
        query.put(key, eq < 0 ? "" : decode(pair.substring(eq + 1)));
      }
    }
    String urlUser = query.get("user");
    String urlPassword = query.get("password");
    if (uri.getRawUserInfo() != null) {
      String[] info = uri.getRawUserInfo().split(":", 2);
      urlUser = decode(info[0]);
      urlPassword = info.length > 1 ? decode(info[1]) : urlPassword;
    }
    String sslMode = query.getOrDefault("sslmode", "disable").toLowerCase(Locale.ROOT);
    try {
      SslMode.of(sslMode);
    } catch (IllegalArgumentException e) {
      throw invalid(
          url,
          "sslmode '"
              + sslMode
              + "' is not one of disable, allow, prefer, require, verify-ca, verify-full");
    }
    return new PostgresUrl(
        uri.getHost(),
        uri.getPort() < 0 ? 5432 : uri.getPort(),
        database.isEmpty() ? "postgres" : database,
        !user.isBlank() ? user : urlUser != null ? urlUser : System.getProperty("user.name"),
        !password.isBlank() ? password : urlPassword != null ? urlPassword : "",
        sslMode);
  }

  private static String decode(String part) {
    return URLDecoder.decode(part, StandardCharsets.UTF_8);
  }

  private static IllegalArgumentException invalid(String url, String why) {
    // the URL may carry a password: name only its start
    String shown = url.replaceAll("//[^@/]*@", "//…@");
    return new IllegalArgumentException("postgres url '" + shown + "' is not usable: " + why);
  }

  @Override
  public String toString() {
    return user + "@" + host + ":" + port + "/" + database;
  }

  /** The reactive client's options; {@code startup} are server settings for every connection. */
  PgConnectOptions reactive(Map<String, String> startup) {
    PgConnectOptions options =
        new PgConnectOptions()
            .setHost(host)
            .setPort(port)
            .setDatabase(database)
            .setUser(user)
            .setPassword(password)
            .setSslMode(SslMode.of(sslMode));
    startup.forEach(options::addProperty);
    return options.addProperty("application_name", "sonde");
  }

  /** The JDBC URL of the same database, without credentials (they go as properties). */
  String jdbcUrl() {
    String hostPart = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    return "jdbc:postgresql://"
        + hostPart
        + ":"
        + port
        + "/"
        + java.net.URLEncoder.encode(database, StandardCharsets.UTF_8)
        + "?sslmode="
        + sslMode;
  }
}
