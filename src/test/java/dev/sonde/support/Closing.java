package dev.sonde.support;

/** What a test class started, closed after it in the order given; nulls (never started) skipped. */
public final class Closing {
  private Closing() {}

  /** Closes each in turn, all of them even when one fails; the first failure is rethrown. */
  public static void inOrder(AutoCloseable... resources) throws Exception {
    Exception first = null;
    for (AutoCloseable resource : resources) {
      if (resource == null) {
        continue;
      }
      try {
        resource.close();
      } catch (Exception e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
