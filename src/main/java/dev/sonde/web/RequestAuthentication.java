package dev.sonde.web;

import dev.sonde.auth.BearerTokens;
import dev.sonde.auth.Principal;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;

/**
 * Who an HTTP or WebSocket request acts as. With {@code auth.mode: none} every request is the local
 * account; with {@code tokens} a request signs in with {@code Authorization: Bearer <API token>}
 * and is answered 401 with a {@code WWW-Authenticate} challenge (RFC 6750) otherwise.
 */
public final class RequestAuthentication {
  static final String PRINCIPAL = "sonde.principal";
  private static final CharSequence CHALLENGE = HttpHeaders.createOptimized("WWW-Authenticate");
  private static final String HOW =
      "send Authorization: Bearer <API token>; an administrator makes one with java -jar"
          + " sonde.jar token create --account NAME --toolsets SETS";

  private final Principal local;
  private final BearerTokens tokens;

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

  /** A router step: signs the request in and goes on, or answers it 401. */
  void route(RoutingContext context) {
    Principal principal = signIn(context.request());
    if (principal != null) {
      context.put(PRINCIPAL, principal);
      context.next();
    }
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
