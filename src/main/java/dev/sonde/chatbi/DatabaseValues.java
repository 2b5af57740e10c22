package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Value;
import dev.sonde.chatbi.Ontology.ValueDictionary;
import dev.sonde.core.Call;
import dev.sonde.db.Database;
import dev.sonde.db.QueryRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The value dictionaries a domain marks {@code fromDatabase} (names too many to list by hand, such
 * as cities), filled with the column's distinct values: read on first use, kept ten minutes per
 * connection and column, at most {@link #MAX} values a column.
 */
final class DatabaseValues {
  static final int MAX = 10_000;
  private static final int MAX_LENGTH = 80;
  private static final Duration FRESH = Duration.ofMinutes(10);
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseValues.class);

  private record Loaded(List<String> values, Instant at) {}

  private final Map<String, Loaded> cache = new ConcurrentHashMap<>();

  /** {@code ontology} with its database-read dictionaries filled in (declared entries first). */
  Future<Ontology> filled(Ontology ontology, Database db, Call call) {
    if (ontology.values().stream().noneMatch(ValueDictionary::fromDatabase)) {
      return Future.succeededFuture(ontology);
    }
    // one column at a time, so a domain of many dictionaries holds one connection, not all
    Future<List<ValueDictionary>> out = Future.succeededFuture(new ArrayList<>());
    for (ValueDictionary d : ontology.values()) {
      out =
          out.compose(
              done ->
                  (d.fromDatabase() ? filled(ontology, d, db, call) : Future.succeededFuture(d))
                      .map(
                          one -> {
                            done.add(one);
                            return done;
                          }));
    }
    return out.map(ontology::withValues);
  }

  /** One database-read dictionary: its declared entries, then the column's distinct values. */
  private Future<ValueDictionary> filled(
      Ontology ontology, ValueDictionary d, Database db, Call call) {
    String key = ontology.connection() + "\u0000" + d.column().toLowerCase(Locale.ROOT);
    Loaded cached = cache.get(key);
    Future<Loaded> loaded =
        cached != null && !cached.at().plus(FRESH).isBefore(Instant.now())
            ? Future.succeededFuture(cached)
            : read(d.column(), db, call)
                .map(
                    values -> {
                      Loaded fresh = new Loaded(values, Instant.now());
                      cache.put(key, fresh);
                      return fresh;
                    });
    return loaded.map(
        l -> {
          Set<String> declared = new HashSet<>();
          d.entries().forEach(v -> declared.add(v.value().toLowerCase(Locale.ROOT)));
          List<Value> entries = new ArrayList<>(d.entries());
          for (String v : l.values()) {
            if (declared.add(v.toLowerCase(Locale.ROOT))) {
              entries.add(new Value(v, List.of()));
            }
          }
          return new ValueDictionary(d.column(), entries, true);
        });
  }

  private static Future<List<String>> read(String column, Database db, Call call) {
    return distinct(db, db.quote(Ontology.tableOf(column)), Ontology.columnOf(column), MAX, call)
        .map(
            values -> {
              if (values.size() > MAX) {
                LOG.warn(
                    "{} has more than {} distinct values; none are linked from the database",
                    column,
                    MAX);
                return List.of();
              }
              List<String> out = new ArrayList<>();
              for (Object v : values) {
                if (v instanceof String s && !s.isBlank() && s.length() <= MAX_LENGTH) {
                  out.add(s);
                }
              }
              return out;
            });
  }

  /**
   * At most {@code max} + 1 distinct non-null values of {@code column} in {@code from} (a quoted
   * table): one more than {@code max} says there are too many.
   */
  static Future<List<Object>> distinct(
      Database db, String from, String column, int max, Call call) {
    String quoted = db.quote(column);
    String sql =
        "SELECT DISTINCT " + quoted + " FROM " + from + " WHERE " + quoted + " IS NOT NULL";
    return db.query(new QueryRequest(sql, max + 1, false, "iso", ZoneOffset.UTC), call)
        .map(
            result -> {
              List<Object> out = new ArrayList<>();
              for (Object row : result.getJsonArray("rows", new JsonArray())) {
                out.add(((JsonArray) row).getValue(0));
              }
              if (result.getBoolean("truncated", false) && out.size() <= max) {
                out.add(null); // cut by the connection's size budget: more than we can keep
              }
              return out;
            });
  }
}
