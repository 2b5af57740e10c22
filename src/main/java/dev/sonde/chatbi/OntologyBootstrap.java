package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Aggregation;
import dev.sonde.chatbi.Ontology.Attribute;
import dev.sonde.chatbi.Ontology.Cardinality;
import dev.sonde.chatbi.Ontology.Entity;
import dev.sonde.chatbi.Ontology.Join;
import dev.sonde.chatbi.Ontology.Role;
import dev.sonde.chatbi.Ontology.Term;
import dev.sonde.chatbi.Ontology.Value;
import dev.sonde.chatbi.Ontology.ValueDictionary;
import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.db.Database;
import dev.sonde.db.TableRef;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A first domain for a database Sonde has never seen, from its catalog alone: every table an entity
 * with its comment; column roles from keys, types and names; English glossary terms from the
 * identifiers; value dictionaries for text columns with few distinct values; joins from foreign
 * keys, and from {@code x_id} columns matching another table's single-column key where the database
 * declares none. It is a start for a person to edit, not a curated domain.
 */
public final class OntologyBootstrap {
  static final int MAX_TABLES = 200;
  static final int MAX_VALUES = 50;
  private static final int MAX_VALUE_LENGTH = 60;
  private static final Pattern NUMERIC =
      Pattern.compile(
          "(?i).*(int|decimal|numeric|number|double|float|real|money|hugeint|serial).*");
  private static final Pattern TEMPORAL = Pattern.compile("(?i).*(date|time).*");
  private static final Pattern TEXT = Pattern.compile("(?i).*(char|text|string|varchar|enum).*");
  private static final Pattern AVERAGED =
      Pattern.compile(
          "(?i).*(price|rate|ratio|percent|pct|discount|score|rating|age|lat|lon|latitude"
              + "|longitude|temperature|avg|average|mean).*");
  private static final Pattern KEY_NAME = Pattern.compile("(?i)(.+?)_?id");
  private static final Pattern NAMED_AFTER = Pattern.compile("(?i)(.+?)_?(id|name|code|key|no)");

  private final Database db;
  private final String connection;

  private OntologyBootstrap(Database db, String connection) {
    this.db = db;
    this.connection = connection;
  }

  /**
   * Bootstraps domain {@code connection} from its catalog and saves it as {@code
   * folder/<connection>.yaml}; an existing file is kept and the call refused, so edits are never
   * overwritten.
   */
  public static Future<Path> into(Database db, String connection, Path folder) {
    Path target = folder.resolve(connection + ".yaml");
    if (Files.exists(target)) {
      return Future.failedFuture(
          new CallerException(target + " exists; edit it, or remove it to bootstrap again"));
    }
    return from(db, connection, connection)
        .compose(
            ontology -> {
              try {
                return Future.succeededFuture(Ontologies.save(folder, ontology));
              } catch (java.io.IOException e) {
                return Future.failedFuture(e);
              }
            });
  }

  /** The bootstrapped domain {@code domain} over {@code db} (named {@code connection}). */
  public static Future<Ontology> from(Database db, String connection, String domain) {
    return new OntologyBootstrap(db, connection).build(domain);
  }

  private record Described(TableRef ref, JsonObject table) {}

  private record TextColumn(String entity, String column, TableRef table) {}

  /**
   * Each table's columns ({@code table -> columns}, tables named as a bootstrapped domain names
   * them), to check a written domain against the database it claims to describe.
   */
  public static Future<Map<String, Set<String>>> catalog(Database db) {
    return new OntologyBootstrap(db, db.name())
        .describeAll()
        .map(
            described -> {
              Map<String, Set<String>> out = new LinkedHashMap<>();
              for (Described d : described) {
                Set<String> columns = new LinkedHashSet<>();
                d.table()
                    .getJsonArray("columns", new JsonArray())
                    .forEach(c -> columns.add(((JsonObject) c).getString("name")));
                out.put(d.table().getString("entity"), columns);
              }
              return out;
            });
  }

  private Future<Ontology> build(String domain) {
    return describeAll().compose(described -> assemble(domain, described));
  }

  /** Every table's description, tables named by their bare name unless two share it. */
  private Future<List<Described>> describeAll() {
    return db.tables()
        .compose(
            tables -> {
              List<TableRef> kept = tables.stream().limit(MAX_TABLES).toList();
              Set<String> names = new HashSet<>();
              Set<String> clashing = new HashSet<>();
              kept.forEach(
                  t -> {
                    if (!names.add(t.name().toLowerCase(Locale.ROOT))) {
                      clashing.add(t.name().toLowerCase(Locale.ROOT));
                    }
                  });
              Future<List<Described>> described = Future.succeededFuture(new ArrayList<>());
              for (TableRef t : kept) {
                String name =
                    clashing.contains(t.name().toLowerCase(Locale.ROOT)) ? t.qualified() : t.name();
                described =
                    described.compose(
                        list ->
                            db.describe(t.qualified())
                                .map(
                                    d -> {
                                      list.add(new Described(t, d.put("entity", name)));
                                      return list;
                                    })
                                .otherwise(list));
              }
              return described;
            });
  }

  private Future<Ontology> assemble(String domain, List<Described> described) {
    Map<String, String> entityByQualified = new HashMap<>();
    described.forEach(
        d ->
            entityByQualified.put(
                d.ref().qualified().toLowerCase(Locale.ROOT), d.table().getString("entity")));
    List<Entity> entities = new ArrayList<>();
    List<Term> glossary = new ArrayList<>();
    List<Join> joins = new ArrayList<>();
    List<TextColumn> textColumns = new ArrayList<>();
    Map<String, String> singleKeys = new LinkedHashMap<>(); // key column -> entity
    for (Described d : described) {
      JsonObject t = d.table();
      String entity = t.getString("entity");
      Set<String> keyColumns = new HashSet<>();
      t.getJsonArray("primary_key", new JsonArray()).forEach(c -> keyColumns.add((String) c));
      Set<String> foreignColumns = new HashSet<>();
      for (Object o : t.getJsonArray("foreign_keys", new JsonArray())) {
        JsonObject fk = (JsonObject) o;
        fk.getJsonArray("columns").forEach(c -> foreignColumns.add((String) c));
        String target =
            entityByQualified.get(fk.getString("references", "").toLowerCase(Locale.ROOT));
        if (target == null) {
          continue;
        }
        List<String> from = new ArrayList<>();
        List<String> to = new ArrayList<>();
        fk.getJsonArray("columns").forEach(c -> from.add(entity + "." + c));
        fk.getJsonArray("referenced_columns").forEach(c -> to.add(target + "." + c));
        Set<String> fkSet = new HashSet<>();
        fk.getJsonArray("columns").forEach(c -> fkSet.add((String) c));
        Cardinality cardinality =
            fkSet.equals(keyColumns) ? Cardinality.ONE_TO_ONE : Cardinality.MANY_TO_ONE;
        joins.add(new Join(from, to, cardinality, "foreign_key"));
      }
      if (keyColumns.size() == 1) {
        singleKeys.putIfAbsent(keyColumns.iterator().next().toLowerCase(Locale.ROOT), entity);
      }
      List<Attribute> attributes = new ArrayList<>();
      String label = null;
      for (Object o : t.getJsonArray("columns", new JsonArray())) {
        JsonObject c = (JsonObject) o;
        String column = c.getString("name");
        String type = c.getString("type", "");
        Role role =
            role(column, type, keyColumns.contains(column), foreignColumns.contains(column));
        Aggregation aggregation =
            role == Role.MEASURE
                ? (AVERAGED.matcher(column).matches() ? Aggregation.AVG : Aggregation.SUM)
                : null;
        attributes.add(new Attribute(column, role, aggregation, null, c.getString("comment")));
        if (role == Role.DIMENSION && TEXT.matcher(type).matches()) {
          textColumns.add(new TextColumn(entity, column, d.ref()));
          boolean named = column.toLowerCase(Locale.ROOT).matches(".*(name|title).*");
          if (label == null
              || named && !label.toLowerCase(Locale.ROOT).matches(".*(name|title).*")) {
            label = column;
          }
        }
        if (role != Role.IDENTIFIER) {
          glossary.add(
              new Term(
                  words(column), Map.of(), null, entity + "." + column, null, null, null, null));
        }
      }
      entities.add(new Entity(entity, t.getString("comment"), label, attributes));
      glossary.add(
          new Term(
              words(d.ref().name()),
              synonymsOf(d.ref().name()),
              entity,
              null,
              null,
              null,
              null,
              null));
    }
    joins.addAll(joinsByName(entities, singleKeys, joins));
    Set<String> labels = new HashSet<>();
    entities.stream()
        .filter(e -> e.label() != null)
        .forEach(e -> labels.add(e.table() + "." + e.label()));
    return dictionaries(textColumns, labels)
        .map(
            values ->
                new Ontology(
                    Ontology.FORMAT,
                    Ontology.VERSION,
                    domain,
                    connection,
                    null,
                    "Bootstrapped from the catalog of connection " + connection,
                    entities,
                    glossary,
                    values,
                    joins,
                    List.of()));
  }

  static Role role(String column, String type, boolean primaryKey, boolean foreignKey) {
    if (primaryKey
        || foreignKey
        || KEY_NAME.matcher(column).matches() && NUMERIC.matcher(type).matches()) {
      return Role.IDENTIFIER;
    }
    if (TEMPORAL.matcher(type).matches()) {
      return Role.TIME;
    }
    if (NUMERIC.matcher(type).matches()) {
      return Role.MEASURE;
    }
    return Role.DIMENSION;
  }

  /**
   * Joins a database does not declare, many to one: a column named like another table's
   * single-column key ({@code customer_id} → {@code customers.customer_id}), or named after another
   * table that has the same column ({@code city.state_name} → {@code state.state_name}).
   */
  private static List<Join> joinsByName(
      List<Entity> entities, Map<String, String> singleKeys, List<Join> declared) {
    Set<String> linked = new HashSet<>();
    declared.forEach(j -> linked.add(j.from().get(0).toLowerCase(Locale.ROOT)));
    List<Join> out = new ArrayList<>();
    for (Entity e : entities) {
      for (Attribute a : e.attributes()) {
        String from = e.table() + "." + a.column();
        if (linked.contains(from.toLowerCase(Locale.ROOT))) {
          continue;
        }
        Entity target = entityNamed(entities, singleKeys.get(a.column().toLowerCase(Locale.ROOT)));
        if (target == null) {
          Matcher m = NAMED_AFTER.matcher(a.column());
          target = m.matches() ? entityNamed(entities, m.group(1)) : null;
        }
        if (target == null
            || target.table().equalsIgnoreCase(e.table())
            || target.attribute(a.column()) == null) {
          continue;
        }
        out.add(
            new Join(
                List.of(from),
                List.of(target.table() + "." + target.attribute(a.column()).column()),
                Cardinality.MANY_TO_ONE,
                "name"));
      }
    }
    return out;
  }

  /**
   * The entity called {@code name}, or its plural ({@code state}, {@code states}, {@code cities}).
   */
  private static Entity entityNamed(List<Entity> entities, String name) {
    if (name == null) {
      return null;
    }
    String n = name.toLowerCase(Locale.ROOT);
    List<String> forms =
        List.of(n, n + "s", n + "es", n.endsWith("y") ? n.substring(0, n.length() - 1) + "ies" : n);
    return entities.stream()
        .filter(e -> forms.contains(e.table().toLowerCase(Locale.ROOT)))
        .findFirst()
        .orElse(null);
  }

  /**
   * Distinct values of each text column, kept when there are at most {@link #MAX_VALUES}; an
   * entity's label with more (cities, customers) is read from the database when asked instead.
   */
  private Future<List<ValueDictionary>> dictionaries(
      List<TextColumn> textColumns, Set<String> labels) {
    Future<List<ValueDictionary>> out = Future.succeededFuture(new ArrayList<>());
    for (TextColumn c : textColumns) {
      String qualified = c.entity() + "." + c.column();
      out =
          out.compose(
              list ->
                  DatabaseValues.distinct(
                          db,
                          db.quoted(c.table()),
                          c.column(),
                          MAX_VALUES,
                          Call.statementsOnly("the ontology bootstrap"))
                      .map(
                          rows -> {
                            List<Value> values = new ArrayList<>();
                            for (Object v : rows) {
                              if (v instanceof String s && s.length() <= MAX_VALUE_LENGTH) {
                                values.add(new Value(s, List.of()));
                              }
                            }
                            if (rows.size() > MAX_VALUES && labels.contains(qualified)) {
                              list.add(new ValueDictionary(qualified, List.of(), true));
                            } else if (rows.size() <= MAX_VALUES
                                && values.size() == rows.size()
                                && !values.isEmpty()) {
                              list.add(new ValueDictionary(qualified, values, false));
                            }
                            return list;
                          })
                      .otherwise(list));
    }
    return out;
  }

  /** {@code order_items} or {@code OrderItems} → {@code order items}. */
  static String words(String identifier) {
    return identifier
        .replaceAll("([a-z0-9])([A-Z])", "$1 $2")
        .replace('_', ' ')
        .trim()
        .toLowerCase(Locale.ROOT);
  }

  /** A table's English singular or plural, whichever its name is not. */
  private static Map<String, List<String>> synonymsOf(String table) {
    String w = words(table);
    String other =
        w.endsWith("ies")
            ? w.substring(0, w.length() - 3) + "y"
            : w.endsWith("s") ? w.substring(0, w.length() - 1) : w + "s";
    return Map.of("en", List.of(other));
  }
}
