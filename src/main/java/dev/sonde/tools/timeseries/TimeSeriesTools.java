package dev.sonde.tools.timeseries;

import dev.sonde.timeseries.TimeSeriesException;
import dev.sonde.tools.ToolException;
import io.vertx.core.Future;

/** What the time-series tools share. */
final class TimeSeriesTools {
  private TimeSeriesTools() {}

  /** A time-series refusal becomes the caller's error; anything else stays what it is. */
  static <T> Future<T> callerError(Throwable e) {
    return Future.failedFuture(
        e instanceof TimeSeriesException ? new ToolException(e.getMessage()) : e);
  }
}
