package dev.sonde.workspace;

import dev.sonde.core.AccountName;
import dev.sonde.core.CallerException;
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

  /** The workspace of {@code account}, created on first use. */
  public Workspace of(String account) {
    if (!AccountName.isValid(account)) {
      throw new CallerException(AccountName.RULE + ": " + account);
    }
    return opened.computeIfAbsent(account, a -> new Workspace(root.resolve(a)));
  }
}
