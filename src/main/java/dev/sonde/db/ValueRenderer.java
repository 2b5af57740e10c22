package dev.sonde.db;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.data.Numeric;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Base64;

/**
 * Turns a JDBC value into JSON without losing anything: decimals and integers beyond 2^53 as
 * strings, times per the requested format and zone (a timestamp without zone is taken as UTC),
 * short binary as base64, long binary as its size.
 */
final class ValueRenderer {
  private static final long MAX_EXACT_DOUBLE = 1L << 53;
  static final int MAX_BINARY = 256;

  private final String timeFormat;
  private final ZoneId zone;

  ValueRenderer(String timeFormat, ZoneId zone) {
    this.timeFormat = timeFormat;
    this.zone = zone;
  }

  Object render(ResultSet rs, int column, int sqlType) throws SQLException {
    Object value = rs.getObject(column);
    if (value == null) {
      return null;
    }
    switch (sqlType) {
      case Types.NUMERIC, Types.DECIMAL -> {
        return value instanceof BigDecimal d ? d.toPlainString() : value.toString();
      }
      case Types.TIMESTAMP -> {
        Timestamp ts = rs.getTimestamp(column);
        return time(ts.toLocalDateTime().toInstant(ZoneOffset.UTC), ts.getNanos());
      }
      case Types.TIMESTAMP_WITH_TIMEZONE -> {
        OffsetDateTime odt =
            value instanceof OffsetDateTime o ? o : rs.getObject(column, OffsetDateTime.class);
        return time(odt.toInstant(), odt.getNano());
      }
      case Types.SQLXML -> {
        // the driver's SQLXML object names itself; its text is the value
        return rs.getString(column);
      }
      case Types.DATE, Types.TIME, Types.TIME_WITH_TIMEZONE -> {
        return value.toString();
      }
      case Types.ARRAY -> {
        Object elements = rs.getArray(column).getArray();
        return elements instanceof Object[] array ? render(array) : value.toString();
      }
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> {
        byte[] bytes = rs.getBytes(column);
        return bytes.length <= MAX_BINARY
            ? Base64.getEncoder().encodeToString(bytes)
            : "<binary " + bytes.length + " bytes>";
      }
      default -> {
        return plain(value);
      }
    }
  }

  /**
   * A value as a client without JDBC hands it over (the reactive PostgreSQL client's Java types),
   * rendered the way {@link #render(ResultSet, int, int)} renders the same SQL type.
   */
  Object render(Object value) {
    if (value instanceof Numeric n) {
      return n.bigDecimalValue() == null ? n.toString() : n.bigDecimalValue().toPlainString();
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof LocalDateTime t) {
      return time(t.toInstant(ZoneOffset.UTC), t.getNano());
    }
    if (value instanceof OffsetDateTime t) {
      return time(t.toInstant(), t.getNano());
    }
    if (value instanceof Buffer b) {
      return plain(b.getBytes());
    }
    if (value instanceof Object[] elements) {
      JsonArray out = new JsonArray();
      for (Object element : elements) {
        out.add(element == null ? null : render(element));
      }
      return out;
    }
    return value == null ? null : plain(value);
  }

  private static Object plain(Object value) {
    if (value instanceof Long l) {
      return Math.abs(l) <= MAX_EXACT_DOUBLE ? l : l.toString();
    }
    if (value instanceof BigInteger || value instanceof BigDecimal) {
      return value.toString();
    }
    if (value instanceof Double d) {
      return d.isNaN() || d.isInfinite() ? d.toString() : d;
    }
    if (value instanceof Float f) {
      return f.isNaN() || f.isInfinite() ? f.toString() : f.doubleValue();
    }
    if (value instanceof Integer
        || value instanceof Short
        || value instanceof Byte
        || value instanceof Boolean
        || value instanceof String) {
      return value;
    }
    if (value instanceof byte[] bytes) {
      return bytes.length <= MAX_BINARY
          ? Base64.getEncoder().encodeToString(bytes)
          : "<binary " + bytes.length + " bytes>";
    }
    return value.toString();
  }

  private Object time(Instant instant, int nanos) {
    long seconds = instant.getEpochSecond();
    return switch (timeFormat) {
      case "ms" -> seconds * 1000 + nanos / 1_000_000;
      case "us" -> seconds * 1_000_000 + nanos / 1000;
      case "ns" ->
          String.valueOf(
              BigInteger.valueOf(seconds)
                  .multiply(BigInteger.valueOf(1_000_000_000))
                  .add(BigInteger.valueOf(nanos)));
      default -> OffsetDateTime.ofInstant(instant, zone).toString();
    };
  }
}
