package dev.sonde.auth;

import dev.sonde.config.SondeConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar sonde.jar token create|list|revoke}: the administrator's hands on the token
 * file. A created token is printed once, on stdout alone, so it can be piped into a secret store;
 * every other line goes to stderr.
 */
public final class TokenCommand {
  public static final String USAGE =
      """
      usage: java -jar sonde.jar token create --account NAME --toolsets SET[,SET...] [--expires-days N] [--config FILE]
             java -jar sonde.jar token list [--config FILE]
             java -jar sonde.jar token revoke ID [--config FILE]
        toolsets: all, general, data-query, basic-analysis, detailed-analysis, report,
                  document-search, system-information, or one defined under auth.toolsets
      """;

  private TokenCommand() {}

  /** Runs the command in {@code args} (after {@code token} and {@code --config}); the exit code. */
  public static int run(List<String> args, SondeConfig config, PrintStream out, PrintStream err) {
    ApiTokens tokens = new ApiTokens(config.auth().tokensFileIn(config.data()));
    try {
      if (args.isEmpty()) {
        throw new IllegalArgumentException("name a command: create, list or revoke");
      }
      return switch (args.get(0)) {
        case "create" -> create(options(args.subList(1, args.size())), config, tokens, out, err);
        case "list" -> list(tokens, out);
        case "revoke" -> revoke(args.subList(1, args.size()), tokens, err);
        case "--help", "-h", "help" -> {
          out.print(USAGE);
          yield 0;
        }
        default ->
            throw new IllegalArgumentException(
                "unknown token command '" + args.get(0) + "'; use create, list or revoke");
      };
    } catch (IllegalArgumentException e) {
      err.println("sonde token: " + e.getMessage());
      err.print(USAGE);
      return 2;
    } catch (IOException e) {
      err.println("sonde token: " + e.getMessage());
      return 1;
    }
  }

  private static int create(
      Map<String, String> options,
      SondeConfig config,
      ApiTokens tokens,
      PrintStream out,
      PrintStream err)
      throws IOException {
    String account = options.remove("account");
    String sets = options.remove("toolsets");
    String days = options.remove("expires-days");
    if (!options.isEmpty()) {
      throw new IllegalArgumentException("unknown option --" + options.keySet().iterator().next());
    }
    if (account == null || sets == null) {
      throw new IllegalArgumentException("create needs --account and --toolsets");
    }
    List<String> toolsets = Arrays.stream(sets.split(",")).map(String::trim).toList();
    List<String> known = new ArrayList<>(List.of(Toolsets.ALL, Toolsets.GENERAL));
    known.addAll(Toolsets.SHIPPED.keySet());
    known.addAll(config.auth().toolsets().keySet());
    for (String set : toolsets) {
      if (!known.contains(set)) {
        throw new IllegalArgumentException(
            "unknown toolset '" + set + "'; the toolsets are " + known);
      }
    }
    Instant expires = null;
    if (days != null) {
      try {
        int n = Integer.parseInt(days);
        if (n < 1) {
          throw new NumberFormatException();
        }
        expires = Instant.now().plus(Duration.ofDays(n));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "--expires-days takes a whole number of days, 1 or more");
      }
    }
    ApiTokens.Created created = tokens.create(account, toolsets, expires);
    out.println(created.token());
    err.println(
        "sonde token: created "
            + created.entry().id()
            + " for "
            + account
            + " with "
            + String.join(", ", toolsets)
            + (expires == null ? ", no expiry" : ", expiring " + expires)
            + ". It is shown this once: Sonde keeps only a salted hash in "
            + tokens.file());
    return 0;
  }

  private static int list(ApiTokens tokens, PrintStream out) throws IOException {
    Instant now = Instant.now();
    out.printf("%-16s  %-16s  %-8s  %-20s  %s%n", "ID", "ACCOUNT", "STATE", "EXPIRES", "TOOLSETS");
    for (ApiTokens.Entry entry : tokens.entries()) {
      out.printf(
          "%-16s  %-16s  %-8s  %-20s  %s%n",
          entry.id(),
          entry.account(),
          entry.revoked() != null ? "revoked" : entry.liveAt(now) ? "live" : "expired",
          entry.expires() == null ? "never" : entry.expires().toString().substring(0, 19),
          String.join(",", entry.toolsets()));
    }
    return 0;
  }

  private static int revoke(List<String> args, ApiTokens tokens, PrintStream err)
      throws IOException {
    if (args.size() != 1) {
      throw new IllegalArgumentException("revoke takes one token id (token list shows them)");
    }
    if (!tokens.revoke(args.get(0))) {
      err.println("sonde token: no token " + args.get(0) + " in " + tokens.file());
      return 1;
    }
    err.println(
        "sonde token: revoked " + args.get(0) + "; a running Sonde refuses it within a second");
    return 0;
  }

  private static Map<String, String> options(List<String> args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("--") || i + 1 >= args.size()) {
        throw new IllegalArgumentException(
            arg.startsWith("--") ? arg + " needs a value" : "unexpected argument " + arg);
      }
      options.put(arg.substring(2), args.get(++i));
    }
    return options;
  }
}
