package dev.sonde.tools;

/**
 * The optional {@code connection} argument every database tool takes; a tool reads it as {@code
 * databases.get(ctx.arg(CONNECTION))}, which names the known connections when it is unknown.
 */
public final class ConnectionArg {
  public static final Arg<String> CONNECTION =
      Arg.string("connection", "Named connection to use; omit for the default connection");

  private ConnectionArg() {}
}
