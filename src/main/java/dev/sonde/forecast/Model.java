package dev.sonde.forecast;

/** One forecasting method, fitted afresh on every call. */
interface Model {
  /** The name callers use in {@code method}. */
  String id();

  /** What the model is, for people. */
  String label();

  /**
   * Whether the model is fitted on seasonally adjusted data (the forecaster takes the pattern out
   * and puts it back) rather than modelling the season itself.
   */
  boolean fitsAdjusted();

  /** Whether the model can be fitted on {@code n} points at seasonal period {@code m}. */
  boolean fits(int n, int m);

  Prediction predict(double[] y, int m, int h);
}
