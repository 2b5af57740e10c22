package dev.sonde.forecast;

/**
 * A model's point forecast and, where the model has an analytic one, the standard deviation of each
 * step's error (null: the bands come from the backtest's errors).
 */
record Prediction(double[] mean, double[] sd) {}
