package dev.sonde.support;

/** One in-process Sonde shared by the test classes of a JVM, closed when the JVM exits. */
public final class SharedSonde {
  private static InProcessSonde instance;

  private SharedSonde() {}

  public static synchronized InProcessSonde get() {
    if (instance == null) {
      instance = new InProcessSonde();
      InProcessSonde started = instance;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close));
    }
    return instance;
  }
}
