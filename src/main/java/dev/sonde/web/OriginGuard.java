package dev.sonde.web;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * DNS-rebinding protection: the Host header must name this server (loopback names by default, plus
 * configured origins), and an Origin header, when sent, must be one of the same.
 */
public final class OriginGuard {
  private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]");
  private final Set<String> hosts = new CopyOnWriteArraySet<>();
  private final Set<String> origins = new CopyOnWriteArraySet<>();
  private final List<String> configuredOrigins;

  public OriginGuard(List<String> configuredOrigins) {
    this.configuredOrigins = configuredOrigins;
  }

  /** Called once the listener knows its port. */
  public void bind(int port) {
    for (String name : LOOPBACK) {
      hosts.add(name);
      hosts.add(name + ":" + port);
      origins.add("http://" + name + ":" + port);
      origins.add("http://" + name);
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
    String origin = request.getHeader("Origin");
    return origin == null || origins.contains(origin.toLowerCase(Locale.ROOT));
  }
}
