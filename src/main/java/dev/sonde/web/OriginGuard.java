package dev.sonde.web;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DNS-rebinding and cross-site protection: the Host header must name this server (loopback names by
 * default, plus configured origins); an Origin header, when sent, must be this server's own origin
 * (loopback at its port) or a configured one; and a browser's cross-site or same-site request (by
 * its {@code Sec-Fetch-Site}, which pages cannot forge) may only navigate to a page: it cannot call
 * the API or MCP, which start work, nor embed anything.
 */
public final class OriginGuard {
  private static final CharSequence FETCH_SITE = HttpHeaders.createOptimized("Sec-Fetch-Site");
  private static final CharSequence FETCH_MODE = HttpHeaders.createOptimized("Sec-Fetch-Mode");
  private static final CharSequence FETCH_DEST = HttpHeaders.createOptimized("Sec-Fetch-Dest");
  private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]");
  private final Set<String> hosts = ConcurrentHashMap.newKeySet();
  private final Set<String> origins = ConcurrentHashMap.newKeySet();
  private final List<String> configuredOrigins;

  public OriginGuard(List<String> configuredOrigins) {
    this.configuredOrigins = configuredOrigins;
  }

  /** Called once the listener knows its port. */
  public void bind(int port) {
    for (String name : LOOPBACK) {
      hosts.add(name);
      hosts.add(name + ":" + port);
      // no port-less loopback origins: a page on local port 80 is another program's page
      origins.add("http://" + name + ":" + port);
    }
    for (String origin : configuredOrigins) {
      String normalized = origin.toLowerCase(Locale.ROOT).replaceAll("/+$", "");
      origins.add(normalized);
      URI uri = URI.create(normalized);
      hosts.add(uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort());
    }
  }

  public boolean allows(HttpServerRequest request) {
    // authority() is the Host header in HTTP/1.1 and :authority in HTTP/2
    HostAndPort authority = request.authority();
    if (authority == null) {
      return false;
    }
    String host = authority.host().toLowerCase(Locale.ROOT);
    if (host.contains(":") && !host.startsWith("[")) {
      host = "[" + host + "]";
    }
    if (!hosts.contains(authority.port() < 0 ? host : host + ":" + authority.port())) {
      return false;
    }
    String origin = request.getHeader(HttpHeaders.ORIGIN);
    if (origin != null && !origins.contains(origin.toLowerCase(Locale.ROOT))) {
      return false;
    }
    return origin != null || !fromAnotherSite(request) || isNavigation(request);
  }

  /** Browsers label each request; a missing label is a client that is not a browser. */
  private static boolean fromAnotherSite(HttpServerRequest request) {
    String site = request.getHeader(FETCH_SITE);
    return site != null && !site.equalsIgnoreCase("same-origin") && !site.equalsIgnoreCase("none");
  }

  /**
   * A top-level page load that reads nothing back to the linking site and starts no work. The path
   * must already be in the form the router matches (no empty, dot or escaped segments), or {@code
   * //api/jobs} and {@code /%61pi/jobs} would reach the API as a navigation.
   */
  private static boolean isNavigation(HttpServerRequest request) {
    String path = request.path();
    return "navigate".equalsIgnoreCase(request.getHeader(FETCH_MODE))
        && "document".equalsIgnoreCase(request.getHeader(FETCH_DEST))
        && "GET".equals(request.method().name())
        && path.startsWith("/")
        && !path.contains("//")
        && !path.contains("/.")
        && path.indexOf('%') < 0
        && path.indexOf('\\') < 0
        && !path.startsWith("/api/")
        && !path.startsWith("/mcp");
  }
}
