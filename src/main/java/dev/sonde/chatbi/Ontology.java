package dev.sonde.chatbi;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A business domain over one connection, as chat_bi reads it from {@code conf/ontology/*.yaml}: the
 * tables (entities) and their columns (attributes) with roles, the glossary that maps business
 * words in English, Chinese, Japanese and Korean to a table, a column or a metric expression, value
 * dictionaries that link "上海" to {@code stores.city = 'Shanghai'}, the join paths and a few example
 * questions with their SQL.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Ontology(
    String format,
    Integer version,
    String domain,
    String connection,
    @JsonProperty("default") Boolean isDefault,
    String description,
    List<Entity> entities,
    List<Term> glossary,
    List<ValueDictionary> values,
    List<Join> joins,
    List<Example> examples) {

  public static final String FORMAT = "sonde.ontology";
  public static final int VERSION = 1;
  public static final Set<String> LANGUAGES = Set.of("en", "zh", "ja", "ko");
  private static final Pattern QUALIFIED = Pattern.compile("\\b([A-Za-z_]\\w*)\\.[A-Za-z_\"]");
  private static final Pattern DOMAIN_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  public Ontology {
    entities = entities == null ? List.of() : List.copyOf(entities);
    glossary = glossary == null ? List.of() : List.copyOf(glossary);
    values = values == null ? List.of() : List.copyOf(values);
    joins = joins == null ? List.of() : List.copyOf(joins);
    examples = examples == null ? List.of() : List.copyOf(examples);
  }

  /**
   * What a column is for: the parser groups by dimensions, filters time and aggregates measures.
   */
  public enum Role {
    @JsonProperty("identifier")
    IDENTIFIER,
    @JsonProperty("dimension")
    DIMENSION,
    @JsonProperty("time")
    TIME,
    @JsonProperty("measure")
    MEASURE
  }

  public enum Aggregation {
    @JsonProperty("sum")
    SUM,
    @JsonProperty("avg")
    AVG,
    @JsonProperty("min")
    MIN,
    @JsonProperty("max")
    MAX,
    @JsonProperty("count")
    COUNT,
    @JsonProperty("count_distinct")
    COUNT_DISTINCT
  }

  public enum Cardinality {
    @JsonProperty("many_to_one")
    MANY_TO_ONE,
    @JsonProperty("one_to_one")
    ONE_TO_ONE,
    @JsonProperty("one_to_many")
    ONE_TO_MANY
  }

  /**
   * A table. {@code label} is the column that names a row (products.name), shown when the table is
   * what a question asks for.
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record Entity(String table, String description, String label, List<Attribute> attributes) {
    public Entity {
      attributes = attributes == null ? List.of() : List.copyOf(attributes);
    }

    public Attribute attribute(String column) {
      return attributes.stream()
          .filter(a -> a.column().equalsIgnoreCase(column))
          .findFirst()
          .orElse(null);
    }
  }

  /** A column with its role; a measure's default aggregation; its unit (CNY, kg, seconds). */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record Attribute(
      String column, Role role, Aggregation aggregation, String unit, String description) {}

  /**
   * A business word and its synonyms per language ({@code en}, {@code zh}, {@code ja}, {@code ko}),
   * pointing at exactly one of a table, a column ({@code table.column}), a metric expression over
   * qualified columns, a filter (a condition over them: "major city" → {@code city.population >
   * 150000}) or a relation between rows of one entity ("borders"); {@code time} is the column a
   * metric's time windows filter on.
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record Term(
      String term,
      Map<String, List<String>> synonyms,
      String table,
      String column,
      String metric,
      String time,
      String filter,
      Relation relation) {
    public Term {
      synonyms = synonyms == null ? Map.of() : new LinkedHashMap<>(synonyms);
    }

    /** The term and every synonym, in any language. */
    public List<String> words() {
      List<String> out = new ArrayList<>();
      out.add(term);
      synonyms.values().forEach(out::addAll);
      return out;
    }
  }

  /**
   * Rows of an entity related to a named one through a table of pairs: "states bordering texas" are
   * the {@code related} column's rows ({@code border_info.border}) where the {@code anchor} column
   * ({@code border_info.state_name}, joined to the entity) is texas.
   */
  public record Relation(String anchor, String related) {
    /** The join that reaches the related rows, given the anchor's join to the entity. */
    Join join(Join anchorJoin) {
      String key =
          anchorJoin.from().get(0).equalsIgnoreCase(anchor)
              ? anchorJoin.to().get(0)
              : anchorJoin.from().get(0);
      return new Join(List.of(related), List.of(key), Cardinality.MANY_TO_ONE, "relation");
    }
  }

  /**
   * The values of a column ({@code table.column}), each with its synonyms; {@code fromDatabase}:
   * the column's distinct values are also read from the database (names too many to list: cities).
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record ValueDictionary(
      String column,
      List<Value> entries,
      @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean fromDatabase) {
    public ValueDictionary {
      entries = entries == null ? List.of() : List.copyOf(entries);
    }
  }

  /**
   * How rows of {@code from} meet rows of {@code to} along a declared join between them, seen from
   * {@code from} (a city has one state: many to one); null when no join links them directly.
   */
  Cardinality cardinality(String from, String to) {
    for (Join j : joins) {
      if (j.fromTable().equalsIgnoreCase(from) && j.toTable().equalsIgnoreCase(to)) {
        return j.cardinality();
      }
      if (j.fromTable().equalsIgnoreCase(to) && j.toTable().equalsIgnoreCase(from)) {
        return switch (j.cardinality()) {
          case MANY_TO_ONE -> Cardinality.ONE_TO_MANY;
          case ONE_TO_MANY -> Cardinality.MANY_TO_ONE;
          case ONE_TO_ONE -> Cardinality.ONE_TO_ONE;
        };
      }
    }
    return null;
  }

  /**
   * The single-column join of a relation's anchor column to its entity; null when there is none.
   */
  Join anchorJoin(Relation relation) {
    return joins.stream()
        .filter(j -> j.from().size() == 1)
        .filter(
            j ->
                j.from().get(0).equalsIgnoreCase(relation.anchor())
                    || j.to().get(0).equalsIgnoreCase(relation.anchor()))
        .findFirst()
        .orElse(null);
  }

  /** The joins the domain's relations add: each relation's related column to its entity. */
  List<Join> relationJoins() {
    List<Join> out = new ArrayList<>();
    for (Term t : glossary) {
      if (t.relation() != null && anchorJoin(t.relation()) != null) {
        out.add(t.relation().join(anchorJoin(t.relation())));
      }
    }
    return out;
  }

  /** This domain read through a relation: its join to the entity replaces the anchor's. */
  Ontology through(Relation relation) {
    Join anchor = anchorJoin(relation);
    List<Join> read = new ArrayList<>(joins);
    read.remove(anchor);
    read.add(relation.join(anchor));
    return with(values, read);
  }

  /** This domain with other value dictionaries (those read from the database filled in). */
  Ontology withValues(List<ValueDictionary> filled) {
    return with(filled, joins);
  }

  private Ontology with(List<ValueDictionary> otherValues, List<Join> otherJoins) {
    return new Ontology(
        format,
        version,
        domain,
        connection,
        isDefault,
        description,
        entities,
        glossary,
        otherValues,
        otherJoins,
        examples);
  }

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record Value(String value, List<String> synonyms) {
    public Value {
      synonyms = synonyms == null ? List.of() : List.copyOf(synonyms);
    }
  }

  /**
   * A join path: columns of {@code from} equal to the same number of columns of {@code to}, each
   * {@code table.column}; {@code source} says whether a foreign key or a person declared it.
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record Join(List<String> from, List<String> to, Cardinality cardinality, String source) {
    public Join {
      from = from == null ? List.of() : List.copyOf(from);
      to = to == null ? List.of() : List.copyOf(to);
    }

    public String fromTable() {
      return tableOf(from.get(0));
    }

    public String toTable() {
      return tableOf(to.get(0));
    }
  }

  /** A question and the SQL that answers it, for the model's few-shot prompt and for tests. */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record Example(String question, String sql) {}

  public boolean defaultDomain() {
    return Boolean.TRUE.equals(isDefault);
  }

  public Entity entity(String table) {
    return entities.stream()
        .filter(e -> e.table().equalsIgnoreCase(table))
        .findFirst()
        .orElse(null);
  }

  static String tableOf(String qualifiedColumn) {
    int dot = qualifiedColumn.lastIndexOf('.');
    return dot < 0 ? "" : qualifiedColumn.substring(0, dot);
  }

  static String columnOf(String qualifiedColumn) {
    return qualifiedColumn.substring(qualifiedColumn.lastIndexOf('.') + 1);
  }

  /**
   * What is wrong with this domain as written, each problem saying where and what to change; empty
   * when it can be used. The catalog is not consulted here (see {@link #unknownInCatalog}).
   */
  public List<String> problems() {
    List<String> out = new ArrayList<>();
    if (format != null && !FORMAT.equals(format)) {
      out.add("format is '" + format + "'; write format: " + FORMAT);
    }
    if (version != null && version > VERSION) {
      out.add("version " + version + " is newer than this Sonde reads (" + VERSION + ")");
    }
    if (domain == null || !DOMAIN_NAME.matcher(domain).matches()) {
      out.add("domain must be 1-64 letters, digits, '_' or '-'");
    }
    if (connection == null || connection.isBlank()) {
      out.add("connection is missing: name the configured connection this domain queries");
    }
    if (entities.isEmpty()) {
      out.add("entities is empty: list the tables this domain covers");
    }
    Set<String> tables = new HashSet<>();
    for (int i = 0; i < entities.size(); i++) {
      Entity e = entities.get(i);
      String where = "entities[" + i + "]";
      if (e.table() == null || e.table().isBlank()) {
        out.add(where + ": table is missing");
        continue;
      }
      if (!tables.add(e.table().toLowerCase(Locale.ROOT))) {
        out.add(where + ": table " + e.table() + " is listed twice");
      }
      if (e.label() != null && e.attribute(e.label()) == null) {
        out.add(where + ": label " + e.label() + " is not one of its attributes");
      }
      for (int j = 0; j < e.attributes().size(); j++) {
        Attribute a = e.attributes().get(j);
        String at = where + ".attributes[" + j + "]";
        if (a.column() == null || a.column().isBlank()) {
          out.add(at + ": column is missing");
        } else if (a.role() == null) {
          out.add(
              at
                  + " ("
                  + a.column()
                  + "): role is missing: identifier, dimension, time or measure");
        }
      }
    }
    for (int i = 0; i < glossary.size(); i++) {
      Term t = glossary.get(i);
      String where = "glossary[" + i + "]" + (t.term() == null ? "" : " (" + t.term() + ")");
      if (t.term() == null || t.term().isBlank()) {
        out.add(where + ": term is missing");
      }
      int targets =
          (t.table() == null ? 0 : 1)
              + (t.column() == null ? 0 : 1)
              + (t.metric() == null ? 0 : 1)
              + (t.filter() == null ? 0 : 1)
              + (t.relation() == null ? 0 : 1);
      if (targets != 1) {
        out.add(where + ": give exactly one of table, column, metric, filter or relation");
      }
      if (t.relation() != null) {
        Relation r = t.relation();
        columnProblem(
            r.anchor() == null ? "" : r.anchor(), where + ": relation anchor", tables, out);
        columnProblem(
            r.related() == null ? "" : r.related(), where + ": relation related", tables, out);
        if (r.anchor() != null && anchorJoin(r) == null) {
          out.add(where + ": relation anchor " + r.anchor() + " is in no join; declare its join");
        }
      }
      for (String expression : Arrays.asList(t.metric(), t.filter())) {
        Matcher qualified = expression == null ? null : QUALIFIED.matcher(expression);
        boolean any = false;
        while (qualified != null && qualified.find()) {
          any = true;
          if (!tables.contains(qualified.group(1).toLowerCase(Locale.ROOT))) {
            out.add(where + ": table " + qualified.group(1) + " is not an entity");
          }
        }
        if (expression != null && !any) {
          out.add(where + ": write the columns as table.column in '" + expression + "'");
        }
      }
      if (t.table() != null && !tables.contains(t.table().toLowerCase(Locale.ROOT))) {
        out.add(where + ": table " + t.table() + " is not an entity");
      }
      if (t.column() != null) {
        columnProblem(t.column(), where + ": column", tables, out);
      }
      if (t.time() != null) {
        columnProblem(t.time(), where + ": time", tables, out);
      }
      for (String language : t.synonyms().keySet()) {
        if (!LANGUAGES.contains(language)) {
          out.add(where + ": synonyms language '" + language + "': use en, zh, ja or ko");
        }
      }
    }
    for (int i = 0; i < values.size(); i++) {
      ValueDictionary v = values.get(i);
      columnProblem(v.column() == null ? "" : v.column(), "values[" + i + "]: column", tables, out);
    }
    for (int i = 0; i < joins.size(); i++) {
      Join j = joins.get(i);
      String where = "joins[" + i + "]";
      if (j.from().isEmpty() || j.from().size() != j.to().size()) {
        out.add(where + ": from and to need the same number of columns (at least one)");
        continue;
      }
      for (String c : j.from()) {
        columnProblem(c, where + ": from", tables, out);
      }
      for (String c : j.to()) {
        columnProblem(c, where + ": to", tables, out);
      }
    }
    for (int i = 0; i < examples.size(); i++) {
      Example x = examples.get(i);
      if (x.question() == null || x.question().isBlank() || x.sql() == null || x.sql().isBlank()) {
        out.add("examples[" + i + "]: give both question and sql");
      }
    }
    return out;
  }

  private static void columnProblem(
      String qualified, String where, Set<String> tables, List<String> out) {
    String table = tableOf(qualified);
    if (table.isEmpty() || columnOf(qualified).isEmpty()) {
      out.add(where + " '" + qualified + "' must be table.column");
    } else if (!tables.contains(table.toLowerCase(Locale.ROOT))) {
      out.add(where + " '" + qualified + "': table " + table + " is not an entity");
    }
  }

  /**
   * Tables and columns this domain names that the catalog ({@code table -> columns}, any case) does
   * not have, so a domain written for another database is refused with what to fix.
   */
  public List<String> unknownInCatalog(Map<String, Set<String>> catalog) {
    Map<String, Set<String>> lower = new LinkedHashMap<>();
    catalog.forEach(
        (table, columns) -> {
          Set<String> cs = new HashSet<>();
          columns.forEach(c -> cs.add(c.toLowerCase(Locale.ROOT)));
          lower.put(table.toLowerCase(Locale.ROOT), cs);
        });
    List<String> out = new ArrayList<>();
    for (Entity e : entities) {
      Set<String> columns = lower.get(e.table().toLowerCase(Locale.ROOT));
      if (columns == null) {
        out.add("table " + e.table() + " is not in connection " + connection);
        continue;
      }
      for (Attribute a : e.attributes()) {
        if (!columns.contains(a.column().toLowerCase(Locale.ROOT))) {
          out.add("column " + e.table() + "." + a.column() + " is not in connection " + connection);
        }
      }
    }
    List<String> referenced = new ArrayList<>();
    glossary.forEach(
        t -> {
          if (t.column() != null) {
            referenced.add(t.column());
          }
          if (t.time() != null) {
            referenced.add(t.time());
          }
        });
    values.forEach(v -> referenced.add(v.column()));
    joins.forEach(
        j -> {
          referenced.addAll(j.from());
          referenced.addAll(j.to());
        });
    for (String qualified : referenced) {
      Set<String> columns = lower.get(tableOf(qualified).toLowerCase(Locale.ROOT));
      if (columns != null && !columns.contains(columnOf(qualified).toLowerCase(Locale.ROOT))) {
        out.add("column " + qualified + " is not in connection " + connection);
      }
    }
    return out.stream().distinct().toList();
  }
}
