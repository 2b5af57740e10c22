package dev.sonde.auth;

import dev.sonde.core.AccountName;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.User;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signs requests in by OAuth 2.1 access token, as the MCP authorization spec has a resource server
 * do: a JWT signed by one of the issuer's keys (its JWKS, found through its RFC 8414 metadata
 * unless configured), from that issuer ({@code iss}), for this resource ({@code aud} holds Sonde's
 * resource URL, RFC 8707), unexpired ({@code exp} required). Its account is a claim ({@code sub} by
 * default) and its toolsets are the scopes that name one. Checking the signature, issuer, audience
 * and dates is vertx-auth-jwt's; the keys are fetched at start, every {@link #REFRESH_MILLIS}, and
 * again (at most every {@link #MISS_MILLIS}) when a token names a key not yet seen.
 */
public final class OAuthTokens {
  private static final Logger LOG = LoggerFactory.getLogger(OAuthTokens.class);
  static final long REFRESH_MILLIS = 15 * 60_000;
  static final long MISS_MILLIS = 30_000;
  private static final int LEEWAY_SECONDS = 30;

  /** Where the issuer is and what Sonde is to it. */
  public record Settings(String issuer, String jwksUrl, String resource, String accountClaim) {}

  private final Vertx vertx;
  private final Settings settings;
  private final Toolsets toolsets;
  private final HttpClient http;
  private final AtomicLong lastFetch = new AtomicLong();
  // null until the issuer's keys are read: a JWTAuth with no keys would take unsigned tokens
  private volatile JWTAuth verifier;

  private OAuthTokens(Vertx vertx, Settings settings, Toolsets toolsets) {
    this.vertx = vertx;
    this.settings = settings;
    this.toolsets = toolsets;
    this.http =
        vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(5000).setIdleTimeout(30));
  }

  /** A verifier that reads the issuer's keys now, and again from time to time. */
  public static OAuthTokens start(Vertx vertx, Settings settings, Toolsets toolsets) {
    OAuthTokens tokens = new OAuthTokens(vertx, settings, toolsets);
    tokens.refresh();
    vertx.setPeriodic(REFRESH_MILLIS, id -> tokens.refresh());
    return tokens;
  }

  public Settings settings() {
    return settings;
  }

  /** The toolsets a token may ask for as scopes. */
  public List<String> scopes() {
    return toolsets.names();
  }

  /** Whether the issuer's keys have been read. */
  public boolean ready() {
    return verifier != null;
  }

  /** Reads the issuer's keys again; the ones read before stay until new ones arrive. */
  public Future<Void> refresh() {
    lastFetch.set(System.currentTimeMillis());
    Future<String> jwksUrl =
        settings.jwksUrl().isBlank()
            ? discoverJwksUrl()
            : Future.succeededFuture(settings.jwksUrl());
    return jwksUrl
        .compose(this::getJson)
        .compose(
            jwks -> {
              List<JsonObject> keys = signingKeys(jwks);
              if (keys.isEmpty()) {
                return Future.failedFuture("the issuer's JWKS holds no signing key");
              }
              JWTAuthOptions options =
                  new JWTAuthOptions()
                      .setJwks(keys)
                      .setJWTOptions(
                          new JWTOptions()
                              .setIssuer(settings.issuer())
                              .setAudience(List.of(settings.resource()))
                              .setLeeway(LEEWAY_SECONDS));
              verifier = JWTAuth.create(vertx, options);
              LOG.info("OAuth: read {} signing key(s) of {}", keys.size(), settings.issuer());
              return Future.<Void>succeededFuture();
            })
        .onFailure(
            e ->
                LOG.error(
                    "OAuth: the keys of {} could not be read: {}; access tokens are refused until"
                        + " they are",
                    settings.issuer(),
                    e.getMessage()));
  }

  /** The verdict on {@code token}: its principal, or why it signs no one in. */
  public Future<BearerTokens.Verdict> verify(String token) {
    JWTAuth current = verifier;
    if (current == null) {
      refreshSoon();
      return Future.succeededFuture(
          new BearerTokens.Verdict(
              null, "the authorization server's keys are not read yet; try again shortly"));
    }
    return current
        .authenticate(new TokenCredentials(token))
        .map(this::verdict)
        .recover(
            e -> {
              String reason = e.getMessage() == null ? "" : e.getMessage();
              if (e.getClass().getSimpleName().equals("NoSuchKeyIdException")) {
                refreshSoon();
              }
              return Future.succeededFuture(
                  new BearerTokens.Verdict(
                      null, "the access token is not valid here: " + plain(reason)));
            });
  }

  private BearerTokens.Verdict verdict(User user) {
    JsonObject claims = user.attributes().getJsonObject("accessToken", new JsonObject());
    if (!(claims.getValue("exp") instanceof Number exp)) {
      return new BearerTokens.Verdict(null, "the access token has no expiry (exp)");
    }
    String account = claims.getValue(settings.accountClaim()) instanceof String a ? a : null;
    if (!AccountName.isValid(account)) {
      return new BearerTokens.Verdict(
          null,
          "the access token's "
              + settings.accountClaim()
              + " claim is not a plain account name (letters, digits, '.', '_', '-')");
    }
    Set<String> granted = new LinkedHashSet<>();
    List<String> known = toolsets.names();
    for (String scope : scopesOf(claims)) {
      if (known.contains(scope)) {
        granted.add(scope);
      }
    }
    if (granted.isEmpty()) {
      return new BearerTokens.Verdict(
          null, "the access token's scopes name no toolset; ask for one of " + known, true);
    }
    String id = claims.getValue("jti") instanceof String jti ? jti : null;
    return new BearerTokens.Verdict(
        Principal.ofAccessToken(
            account,
            toolsets.grant(new ArrayList<>(granted)),
            id,
            Instant.ofEpochSecond(exp.longValue())),
        null);
  }

  /** The {@code scope} claim (space-separated) or {@code scp} (a list), as OAuth servers send. */
  private static List<String> scopesOf(JsonObject claims) {
    List<String> scopes = new ArrayList<>();
    if (claims.getValue("scope") instanceof String text) {
      for (String s : text.trim().split("\\s+")) {
        scopes.add(s);
      }
    }
    if (claims.getValue("scp") instanceof JsonArray list) {
      list.forEach(s -> scopes.add(String.valueOf(s)));
    }
    return scopes;
  }

  private void refreshSoon() {
    long last = lastFetch.get();
    long now = System.currentTimeMillis();
    if (now - last >= MISS_MILLIS && lastFetch.compareAndSet(last, now)) {
      refresh();
    }
  }

  /** RFC 8414 metadata first, then OpenID Connect discovery; its issuer must be the one set. */
  private Future<String> discoverJwksUrl() {
    URI issuer = URI.create(settings.issuer());
    String path = issuer.getPath() == null || issuer.getPath().equals("/") ? "" : issuer.getPath();
    String origin = issuer.getScheme() + "://" + issuer.getRawAuthority();
    return getJson(origin + "/.well-known/oauth-authorization-server" + path)
        .recover(
            e ->
                getJson(
                    settings.issuer().replaceAll("/$", "") + "/.well-known/openid-configuration"))
        .compose(
            metadata -> {
              if (!settings.issuer().equals(metadata.getString("issuer"))) {
                return Future.failedFuture(
                    "the metadata names issuer "
                        + metadata.getString("issuer")
                        + ", not "
                        + settings.issuer());
              }
              String jwks = metadata.getString("jwks_uri");
              return jwks == null
                  ? Future.failedFuture("the issuer's metadata has no jwks_uri")
                  : Future.succeededFuture(jwks);
            });
  }

  private Future<JsonObject> getJson(String url) {
    URI uri = URI.create(url);
    boolean tls = "https".equals(uri.getScheme());
    RequestOptions request =
        new RequestOptions()
            .setMethod(HttpMethod.GET)
            .setHost(uri.getHost())
            .setPort(uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80)
            .setSsl(tls)
            .setURI(uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()))
            .putHeader("Accept", "application/json")
            .setTimeout(10_000);
    return http.request(request)
        .compose(r -> r.send())
        .compose(
            response ->
                response.statusCode() == 200
                    ? response.body().map(body -> body.toJsonObject())
                    : Future.failedFuture(url + " answered HTTP " + response.statusCode()));
  }

  /** The keys that sign: asymmetric ones not marked for encryption (never a shared secret). */
  static List<JsonObject> signingKeys(JsonObject jwks) {
    List<JsonObject> keys = new ArrayList<>();
    JsonArray all = jwks.getJsonArray("keys", new JsonArray());
    for (Object each : all) {
      if (each instanceof JsonObject key
          && List.of("RSA", "EC", "OKP").contains(key.getString("kty"))
          && !"enc".equals(key.getString("use"))) {
        try {
          JWTAuth.create(null, new JWTAuthOptions().addJwk(key));
          keys.add(key);
        } catch (RuntimeException e) {
          LOG.warn("OAuth: a key of the issuer's JWKS is unusable: {}", e.getMessage());
        }
      }
    }
    return keys;
  }

  /** A library message, stripped of anything but its first sentence. */
  private static String plain(String message) {
    int cut = message.indexOf(". expected");
    return cut > 0 ? message.substring(0, cut) : message;
  }
}
