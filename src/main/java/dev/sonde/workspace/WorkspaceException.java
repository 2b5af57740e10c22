package dev.sonde.workspace;

/** A workspace request the caller can fix: a path outside the workspace, a missing file. */
public final class WorkspaceException extends RuntimeException {
  public WorkspaceException(String message) {
    super(message, null, false, false);
  }
}
