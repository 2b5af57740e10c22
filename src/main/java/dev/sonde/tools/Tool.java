package dev.sonde.tools;

import io.vertx.core.Future;

/**
 * One tool: its spec and its handler. A handler runs where {@link ToolSpec#mode()} says; on a
 * worker or as a job it may block, and returns an already completed future.
 */
public interface Tool {
  ToolSpec spec();

  Future<ToolResult> call(ToolContext ctx) throws Exception;
}
