package dev.sonde.web;

import dev.sonde.auth.BearerTokens;
import dev.sonde.auth.Principal;
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
  private static final int MAX_SIGN_IN_BYTES = 4096;
  private static final CharSequence CHALLENGE = HttpHeaders.createOptimized("WWW-Authenticate");
  private static final String HOW =
      "send Authorization: Bearer <API token>; an administrator makes one with java -jar"
          + " sonde.jar token create --account NAME --toolsets SETS";

  private final Principal local;
  private final BearerTokens tokens;
  private final BrowserSessions browsers = new BrowserSessions();

  private RequestAuthentication(Principal local, BearerTokens tokens) {
    this.local = local;
    this.tokens = tokens;
  }

  /** Every request is {@code local}: a loopback (or explicitly unauthenticated) Sonde. */
  public static RequestAuthentication none(Principal local) {
    return new RequestAuthentication(local, null);
  }

  /** Every request signs in with one of {@code tokens}. */
  public static RequestAuthentication tokens(BearerTokens tokens) {
    return new RequestAuthentication(null, tokens);
  }

  /** The request's principal, or null after answering it 401. */
  Principal signIn(HttpServerRequest request) {
    if (tokens == null) {
      return local;
    }
    String bearer = bearer(request.getHeader(HttpHeaders.AUTHORIZATION));
    if (bearer == null) {
      refuse(request, "Bearer realm=\"sonde\"", "authentication required: " + HOW);
      return null;
    }
    BearerTokens.Verdict verdict = tokens.verify(bearer, Instant.now());
    if (verdict.principal() == null) {
      refuse(
          request,
          "Bearer realm=\"sonde\", error=\"invalid_token\", error_description=\""
              + verdict.refusal()
              + "\"",
          verdict.refusal() + "; " + HOW);
      return null;
    }
    return verdict.principal();
  }

  /**
   * A router step for MCP: signs the request in by its bearer token and goes on, or answers 401.
   */
  void route(RoutingContext context) {
    Principal principal = signIn(context.request());
    if (principal != null) {
      context.put(PRINCIPAL, principal);
      context.next();
    }
  }

  /**
   * A router step for the pages' API: a bearer token, or the sign-in page's cookie (with the CSRF
   * value for anything but a read); 401 or 403 otherwise.
   */
  void routePages(RoutingContext context) {
    HttpServerRequest request = context.request();
    Cookie cookie = request.getCookie(BrowserSessions.COOKIE);
    if (tokens == null || request.getHeader(HttpHeaders.AUTHORIZATION) != null || cookie == null) {
      route(context);
      return;
    }
    BrowserSessions.Signed signed = browsers.get(cookie.getValue(), System.currentTimeMillis());
    if (signed == null || !stillSignedIn(signed.principal())) {
      refuse(
          request,
          "Bearer realm=\"sonde\"",
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
    if (tokens == null) {
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
    BearerTokens.Verdict verdict = tokens.verify(token, Instant.now());
    if (verdict.principal() == null) {
      json(response, 401, new JsonObject().put("error", verdict.refusal()));
      return;
    }
    long now = System.currentTimeMillis();
    String id = browsers.open(verdict.principal(), now);
    response.addCookie(
        Cookie.cookie(BrowserSessions.COOKIE, id)
            .setPath("/")
            .setHttpOnly(true)
            .setSameSite(CookieSameSite.STRICT)
            .setMaxAge(BrowserSessions.LIFETIME_MILLIS / 1000));
    json(response, 200, session(verdict.principal(), browsers.get(id, now).csrf()));
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
        .put("mode", tokens == null ? "none" : "tokens")
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

  /** Whether {@code principal} may still act: its token, if any, is neither revoked nor expired. */
  boolean stillSignedIn(Principal principal) {
    return tokens == null || principal.tokenId() == null || tokens.live(principal.tokenId());
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

  private static void refuse(HttpServerRequest request, String challenge, String message) {
    request
        .response()
        .setStatusCode(401)
        .putHeader(CHALLENGE, challenge)
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
        .end(message);
  }
}
