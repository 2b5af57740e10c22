package dev.sonde.workspace;

import dev.sonde.core.AccountName;
import dev.sonde.core.CallerException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Every account's workspace, each a folder under {@code <data.dir>/workspace}. */
public final class Workspaces {
  private final Path root;
  private final ConcurrentMap<String, Workspace> opened = new ConcurrentHashMap<>();

  public Workspaces(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** A file named in a link: whose workspace holds it, and its path there. */
  public record Located(Workspace workspace, String owner, String path) {}

  /**
   * The file a link names for {@code viewer}: {@code <account>/<path>} names another account's file
   * (or the viewer's own) when that account's folder exists; anything else is a path in the
   * viewer's own workspace, as links were written before they named their account.
   */
  public Located locate(String viewer, String link) {
    int slash = link.indexOf('/');
    if (slash > 0 && slash < link.length() - 1) {
      String owner = link.substring(0, slash);
      if (AccountName.isValid(owner) && Files.isDirectory(root.resolve(owner))) {
        return new Located(of(owner), owner, link.substring(slash + 1));
      }
    }
    return new Located(of(viewer), viewer, link);
  }

  /** The workspace of {@code account}, created on first use. */
  public Workspace of(String account) {
    if (!AccountName.isValid(account)) {
      throw new CallerException(AccountName.RULE + ": " + account);
    }
    return opened.computeIfAbsent(
        account,
        a ->
            new Workspace(
                root.resolve(a),
                top ->
                    !top.equals(a)
                        && AccountName.isValid(top)
                        && Files.isDirectory(root.resolve(top))));
  }
}
