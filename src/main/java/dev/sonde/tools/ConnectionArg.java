package dev.sonde.tools;

/**
 * The optional {@code connection} argument every database tool takes; a tool reads it as {@code
 * databases.get(ctx.arg(CONNECTION))}, which names the known connections when it is unknown. Over
 * HTTP a 2026-07-28 client repeats it in {@code Mcp-Param-Connection}, so a gateway can send each
 * database's calls to the nodes that reach it.
 */
public final class ConnectionArg {
  public static final Arg<String> CONNECTION =
      Arg.string("connection", "Named connection to use; omit for the default connection")
          .mirroredAs("Connection");

  private ConnectionArg() {}
}
