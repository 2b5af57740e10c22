package dev.sonde.db;

import java.time.ZoneId;

/**
 * A read to run: the SQL, how many rows the caller wants, and how to render times.
 *
 * @param limit rows wanted; the connection's maxRows caps it
 * @param timeFormat iso, ms, us or ns
 */
public record QueryRequest(String sql, int limit, boolean csv, String timeFormat, ZoneId zone) {}
