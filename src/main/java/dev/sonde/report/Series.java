package dev.sonde.report;

/** One tag's values in time order (epoch ms). */
public record Series(String tag, long[] times, double[] values) {}
