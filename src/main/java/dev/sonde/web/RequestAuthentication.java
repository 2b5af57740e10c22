package dev.sonde.web;

import dev.sonde.auth.ApiTokens;
import dev.sonde.auth.BearerTokens;
import dev.sonde.auth.OAuthTokens;
import dev.sonde.auth.Principal;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.net.URI;
import java.time.Instant;

/**
 * Who an HTTP or WebSocket request acts as. With {@code auth.mode: none} every request is the local
 * account; with {@code tokens} a request signs in with {@code Authorization: Bearer <API token>}
 * and is answered 401 with a {@code WWW-Authenticate} challenge (RFC 6750) otherwise. The browser
 * pages' API ({@code /api/*}, {@code /workspace/*}) also takes the session cookie of the sign-in
 * page, and then needs the session's CSRF value in {@code X-Sonde-CSRF} for anything but a read.
 */
public final class RequestAuthentication {
  static final String PRINCIPAL = "sonde.principal";
  static final String BROWSER_SESSION = "sonde.browserSession";
  static final String CSRF_HEADER = "X-Sonde-CSRF";
  private static final int MAX_SIGN_IN_BYTES = 16_384;
  static final String METADATA_PATH = "/.well-known/oauth-protected-resource";
  private static final String API_TOKEN_BINDING = "token:";
  private static final CharSequence CHALLENGE = HttpHeaders.createOptimized("WWW-Authenticate");
  private static final String HOW =
      "send Authorization: Bearer <API token>; an administrator makes one with java -jar"
          + " sonde.jar token create --account NAME --toolsets SETS";

  private final Principal local;
  private final BearerTokens tokens;
  private final OAuthTokens oauth;
  private final String metadataUrl;
  private final BrowserSessions browsers = new BrowserSessions();

  private RequestAuthentication(Principal local, BearerTokens tokens, OAuthTokens oauth) {
    this.local = local;
    this.tokens = tokens;
    this.oauth = oauth;
    this.metadataUrl = oauth == null ? null : metadataUrl(oauth.settings().resource());
  }

  /** Every request is {@code local}: a loopback (or explicitly unauthenticated) Sonde. */
  public static RequestAuthentication none(Principal local) {
    return new RequestAuthentication(local, null, null);
  }

  /** Every request signs in with one of {@code tokens}, or an access token of {@code oauth}. */
  public static RequestAuthentication tokens(BearerTokens tokens, OAuthTokens oauth) {
    return new RequestAuthentication(null, tokens, oauth);
  }

  /**
   * Signs the request in and hands its principal on, or answers it 401 (403 for a token whose
   * scopes name no toolset). An API token and the local account are answered at once, an access
   * token once its check completes (the request waits paused meanwhile).
   */
  void signIn(HttpServerRequest request, Handler<Principal> signedIn) {
    if (local != null) {
      signedIn.handle(local);
      return;
    }
    String bearer = bearer(request.getHeader(HttpHeaders.AUTHORIZATION));
    if (bearer == null) {
      refuse(request, 401, challenge(null, null), "authentication required: " + how());
      return;
    }
    if (isApiToken(bearer)) {
      // answered at once: the hot path allocates no future
      decide(request, tokens.verify(bearer, Instant.now()), signedIn);
      return;
    }
    Future<BearerTokens.Verdict> verdict = oauth.verify(bearer);
    boolean waits = !verdict.isComplete();
    if (waits) {
      request.pause();
    }
    verdict.onComplete(
        done -> {
          decide(
              request,
              done.succeeded()
                  ? done.result()
                  : new BearerTokens.Verdict(null, "the token could not be checked"),
              signedIn);
          if (waits) {
            request.resume();
          }
        });
  }

  private boolean isApiToken(String bearer) {
    return oauth == null || bearer.startsWith(ApiTokens.PREFIX);
  }

  /** Hands the principal on, or answers 401 (403 for scopes that name no toolset). */
  private void decide(
      HttpServerRequest request, BearerTokens.Verdict verdict, Handler<Principal> signedIn) {
    if (verdict.principal() != null) {
      signedIn.handle(verdict.principal());
    } else if (verdict.insufficientScope()) {
      refuse(request, 403, challenge("insufficient_scope", verdict.refusal()), verdict.refusal());
    } else {
      refuse(
          request,
          401,
          challenge("invalid_token", verdict.refusal()),
          verdict.refusal() + "; " + how());
    }
  }

  /** What a bearer token signs in: an API token by its shape, an access token otherwise. */
  private Future<BearerTokens.Verdict> verdict(String bearer) {
    if (isApiToken(bearer)) {
      return Future.succeededFuture(tokens.verify(bearer, Instant.now()));
    }
    return oauth.verify(bearer);
  }

  private String how() {
    return oauth == null
        ? HOW
        : "send Authorization: Bearer <access token> from "
            + oauth.settings().issuer()
            + " (its metadata: "
            + metadataUrl
            + "), or an API token";
  }

  /** The RFC 6750 challenge, pointing at the RFC 9728 metadata when OAuth is on. */
  private String challenge(String error, String description) {
    StringBuilder challenge = new StringBuilder("Bearer realm=\"sonde\"");
    if (metadataUrl != null) {
      challenge.append(", resource_metadata=\"").append(metadataUrl).append('"');
    }
    if (error != null) {
      challenge
          .append(", error=\"")
          .append(error)
          .append("\", error_description=\"")
          .append(description.replace('"', '\''))
          .append('"');
    }
    if ("insufficient_scope".equals(error) && oauth != null) {
      challenge.append(", scope=\"").append(String.join(" ", oauth.scopes())).append('"');
    }
    return challenge.toString();
  }

  /**
   * Where RFC 9728 puts the metadata of {@code resource}: the well-known path between its host and
   * its own path.
   */
  static String metadataUrl(String resource) {
    URI uri = URI.create(resource);
    String path = uri.getRawPath() == null || uri.getRawPath().equals("/") ? "" : uri.getRawPath();
    return uri.getScheme() + "://" + uri.getRawAuthority() + METADATA_PATH + path;
  }

  /**
   * A router step for MCP: signs the request in by its bearer token and goes on, or answers 401.
   */
  void route(RoutingContext context) {
    signIn(
        context.request(),
        principal -> {
          context.put(PRINCIPAL, principal);
          context.next();
        });
  }

  /**
   * A router step for the pages' API: a bearer token, or the sign-in page's cookie (with the CSRF
   * value for anything but a read); 401 or 403 otherwise.
   */
  void routePages(RoutingContext context) {
    HttpServerRequest request = context.request();
    Cookie cookie = request.getCookie(BrowserSessions.COOKIE);
    if (local != null || request.getHeader(HttpHeaders.AUTHORIZATION) != null || cookie == null) {
      route(context);
      return;
    }
    BrowserSessions.Signed signed = browsers.get(cookie.getValue(), System.currentTimeMillis());
    if (signed == null || !stillSignedIn(signed.principal())) {
      refuse(
          request,
          401,
          challenge(null, null),
          "the sign-in has ended (it lasts 12 hours, and no longer than its token); sign in again at"
              + " /signin.html");
      return;
    }
    boolean reads = request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD;
    if (!reads && !signed.csrf().equals(request.getHeader(CSRF_HEADER))) {
      request
          .response()
          .setStatusCode(403)
          .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
          .end("a change from a signed-in page needs its " + CSRF_HEADER + " header");
      return;
    }
    context.put(PRINCIPAL, signed.principal());
    context.put(BROWSER_SESSION, cookie.getValue());
    context.next();
  }

  /**
   * The sign-in page's API: {@code POST /api/session} exchanges a token for the session cookie,
   * {@code GET} says who is signed in (and the CSRF value), {@code DELETE} signs out.
   */
  void mount(Router router) {
    if (oauth != null) {
      router.get(METADATA_PATH).handler(this::metadata);
      router.get(METADATA_PATH + "/*").handler(this::metadata);
    }
    router
        .post("/api/session")
        .handler(BodyHandler.create(false).setBodyLimit(MAX_SIGN_IN_BYTES))
        .handler(this::signInPage);
    router.route("/api/*").handler(this::routePages);
    router.route("/workspace/*").handler(this::routePages);
    router.get("/api/session").handler(this::whoAmI);
    router.delete("/api/session").handler(this::signOut);
  }

  private void signInPage(RoutingContext context) {
    HttpServerResponse response = context.response();
    if (local != null) {
      json(
          response,
          400,
          new JsonObject().put("error", "this Sonde has no sign-in: auth.mode is none"));
      return;
    }
    JsonObject body;
    try {
      body = context.body().asJsonObject();
    } catch (RuntimeException e) {
      body = null;
    }
    String token = body != null && body.getValue("token") instanceof String t ? t.trim() : null;
    if (token == null) {
      json(
          response,
          400,
          new JsonObject().put("error", "send {\"token\": \"<API token>\"} as JSON"));
      return;
    }
    verdict(token)
        .onComplete(
            done -> {
              BearerTokens.Verdict verdict = done.succeeded() ? done.result() : null;
              if (verdict == null || verdict.principal() == null) {
                json(
                    response,
                    401,
                    new JsonObject()
                        .put(
                            "error",
                            verdict == null
                                ? "the token could not be checked"
                                : verdict.refusal()));
              } else {
                openBrowserSession(response, verdict.principal());
              }
            });
  }

  private void openBrowserSession(HttpServerResponse response, Principal principal) {
    long now = System.currentTimeMillis();
    String id = browsers.open(principal, now);
    response.addCookie(
        Cookie.cookie(BrowserSessions.COOKIE, id)
            .setPath("/")
            .setHttpOnly(true)
            .setSameSite(CookieSameSite.STRICT)
            .setMaxAge(BrowserSessions.LIFETIME_MILLIS / 1000));
    json(response, 200, session(principal, browsers.get(id, now).csrf()));
  }

  private void whoAmI(RoutingContext context) {
    String id = context.get(BROWSER_SESSION);
    BrowserSessions.Signed signed =
        id == null ? null : browsers.get(id, System.currentTimeMillis());
    json(context.response(), 200, session(of(context), signed == null ? "" : signed.csrf()));
  }

  private void signOut(RoutingContext context) {
    String id = context.get(BROWSER_SESSION);
    if (id != null) {
      browsers.close(id);
    }
    context
        .response()
        .addCookie(
            Cookie.cookie(BrowserSessions.COOKIE, "")
                .setPath("/")
                .setHttpOnly(true)
                .setSameSite(CookieSameSite.STRICT)
                .setMaxAge(0));
    json(context.response(), 200, new JsonObject().put("signedOut", true));
  }

  private JsonObject session(Principal principal, String csrf) {
    return new JsonObject()
        .put("account", principal.account())
        .put("toolsets", new JsonArray(principal.grant().toolsets()))
        .put("mode", local != null ? "none" : oauth != null ? "oauth" : "tokens")
        .put("csrf", csrf);
  }

  private static void json(HttpServerResponse response, int status, JsonObject body) {
    response
        .setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .end(body.encode());
  }

  /** The principal a {@link #route} step signed in. */
  static Principal of(RoutingContext context) {
    return context.get(PRINCIPAL);
  }

  /** Whether {@code principal} may still act: its token is neither revoked nor expired. */
  public boolean stillSignedIn(Principal principal) {
    if (principal.expiredAt(Instant.now())) {
      return false;
    }
    String binding = principal.binding();
    return binding == null
        || !binding.startsWith(API_TOKEN_BINDING)
        || tokens.live(principal.tokenId());
  }

  /** The RFC 9728 document: what this resource is, who issues its tokens, which scopes it knows. */
  private void metadata(RoutingContext context) {
    OAuthTokens.Settings settings = oauth.settings();
    json(
        context.response(),
        200,
        new JsonObject()
            .put("resource", settings.resource())
            .put("authorization_servers", new JsonArray().add(settings.issuer()))
            .put("bearer_methods_supported", new JsonArray().add("header"))
            .put("scopes_supported", new JsonArray(oauth.scopes()))
            .put("resource_name", "Sonde"));
  }

  /** The token of {@code Bearer <token>} (the scheme is case-insensitive), or null. */
  private static String bearer(String authorization) {
    if (authorization == null || authorization.length() < 8) {
      return null;
    }
    if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    String token = authorization.substring(7).trim();
    return token.isEmpty() ? null : token;
  }

  private static void refuse(
      HttpServerRequest request, int status, String challenge, String message) {
    request
        .response()
        .setStatusCode(status)
        .putHeader(CHALLENGE, challenge)
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
        .end(message);
  }
}
