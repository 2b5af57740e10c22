package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Aggregation;
import dev.sonde.chatbi.Ontology.Attribute;
import dev.sonde.chatbi.Ontology.Cardinality;
import dev.sonde.chatbi.Ontology.Entity;
import dev.sonde.chatbi.Ontology.Role;
import dev.sonde.chatbi.QueryPlan.Having;
import dev.sonde.chatbi.QueryPlan.Order;
import dev.sonde.chatbi.QueryPlan.Output;
import dev.sonde.chatbi.Retriever.Kind;
import dev.sonde.chatbi.Retriever.Match;
import dev.sonde.chatbi.Retriever.Retrieved;
import dev.sonde.chatbi.Retriever.ValueMatch;
import dev.sonde.core.Language;
import java.text.Normalizer;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded generator: a rule-based semantic parser from a question and what retrieval found to
 * a {@link QueryPlan}, in English, Chinese, Japanese and Korean. It reads the measure (a glossary
 * metric, a measure column with its aggregation, or a count of an entity), what to group by (the
 * entities and dimensions asked for), filters (linked values, a time window), top-N and its
 * direction, a comparison with the groups' average or a number, and shares. What it cannot place it
 * refuses, naming it, rather than answer a different question.
 */
final class SemanticParser {
  static final int LIST_LIMIT = 200;

  private static final Pattern OWN_SUM =
      Pattern.compile("SUM\\(([A-Za-z_]\\w*)\\.([A-Za-z_]\\w*)\\)");
  private static final Pattern SUM_OF = Pattern.compile("(?is)\\s*SUM\\((.*)\\)\\s*");
  private final Ontology ontology;
  private final SqlWriter writer;

  SemanticParser(Ontology ontology, String dialect) {
    this.ontology = ontology;
    this.writer = new SqlWriter(ontology, dialect);
  }

  /** The plan for {@code question}, or {@link NotUnderstood} naming what could not be placed. */
  QueryPlan parse(String question, Retrieved found, ZonedDateTime now) {
    String q = Normalizer.normalize(question, Normalizer.Form.NFKC);
    List<String> understood = new ArrayList<>();
    // what the question says counts; a likeness of meaning alone only names a missing metric
    List<Match> metrics = of(found, Kind.METRIC, true);
    if (metrics.isEmpty() && Cues.HOW_MUCH.matcher(q).find()) {
      metrics = of(found, Kind.METRIC, false);
    }
    List<Match> columns = of(found, Kind.COLUMN, true);
    List<Match> tables = of(found, Kind.TABLE, true);
    checkNamesAreKnown(q, found);
    Anchored related = relation(q, found);
    if (related != null) {
      // the relation says what its table's columns meant ("borders"): they are not asked for
      columns.removeIf(c -> c.item().tables().contains(related.table()));
      tables.removeIf(t -> t.item().tables().contains(related.table()));
    }
    if (found.matches().isEmpty() && found.values().isEmpty()) {
      throw new NotUnderstood(
          "what to measure or list: no metric, column, table or value of domain "
              + ontology.domain()
              + " is in the question; it knows "
              + knownWords());
    }

    // the measure
    List<Output> measures = new ArrayList<>();
    String countedTable = null;
    boolean rankedBySuperlative = false;
    String measureSaid = null;
    Set<String> used = new LinkedHashSet<>();
    Aggregation said = Cues.aggregation(q);
    if (!metrics.isEmpty()) {
      Ontology.Term term = term(metrics.get(0));
      Matcher sum = SUM_OF.matcher(term.metric());
      if (said == Aggregation.AVG && sum.matches()) {
        // "the average invoice total": the metric's rows averaged, not summed
        measures.add(new Output("AVG(" + sum.group(1) + ")", "avg_" + alias(term.term())));
      } else {
        measures.add(new Output(term.metric(), alias(term.term())));
      }
      used.addAll(metrics.get(0).item().tables());
      understood.add("measure: " + term.term() + " = " + term.metric());
    } else {
      // "the population of the largest state": the superlative's own column ranks, others show
      Match measureColumn =
          columns.stream()
              .filter(m -> role(m) == Role.MEASURE && m.said() != null)
              .filter(m -> Cues.SUPERLATIVE.matcher(m.said()).matches())
              .findFirst()
              .orElse(
                  columns.stream().filter(m -> role(m) == Role.MEASURE).findFirst().orElse(null));
      measureSaid = measureColumn == null ? null : measureColumn.said();
      rankedBySuperlative = measureSaid != null && Cues.SUPERLATIVE.matcher(measureSaid).matches();
      // "how many people" asks for a measure of people, not a count of rows
      boolean countOfMeasure =
          measureColumn != null
              && said == Aggregation.COUNT
              && rightAfter(q, Cues.COUNT, measureColumn);
      if (measureColumn != null && (said != Aggregation.COUNT || countOfMeasure)) {
        Attribute a = attribute(measureColumn);
        Aggregation aggregation =
            said != null && !countOfMeasure
                ? said
                : a.aggregation() == null ? Aggregation.SUM : a.aggregation();
        String column = column(measureColumn);
        measures.add(
            new Output(
                sql(aggregation, column),
                aggregation.name().toLowerCase(Locale.ROOT) + "_" + alias(a.column())));
        used.add(measureColumn.item().tables().iterator().next());
        columns.remove(measureColumn);
        understood.add("measure: " + sql(aggregation, column));
      } else if (said == Aggregation.COUNT_DISTINCT && dimensionSaid(columns) != null) {
        // "how many different countries": the distinct values of a column, not groups of it
        Match distinct = dimensionSaid(columns);
        String column = column(distinct);
        measures.add(
            new Output(
                "COUNT(DISTINCT " + column + ")", "distinct_" + alias(Ontology.columnOf(column))));
        used.add(Ontology.tableOf(column));
        columns.remove(distinct);
        understood.add("measure: distinct " + column);
      } else if (said == Aggregation.COUNT || said == Aggregation.COUNT_DISTINCT) {
        Match counted = counted(q, Cues.COUNT, tables, false);
        if (counted == null) {
          throw new NotUnderstood(
              "what to count: name a table this domain knows, e.g. " + tableNames());
        }
        countedTable = count(counted, measures, used, tables, understood);
      } else if (!tables.isEmpty()
          && tables.size() + dimensions(columns) >= 2
          && rankOrCompare(q)) {
        // "which artists have the most tracks", "countries with more than 5 customers": a count
        // of the entity next to the superlative or comparison, per the other one
        // Chinese, Japanese and Korean say what is counted before the superlative (曲目最多的艺术家)
        Match counted = counted(q, Cues.RANK_OR_COMPARE, tables, Language.detect(q) != Language.EN);
        countedTable = count(counted, measures, used, tables, understood);
      }
    }

    // filters: linked values, the glossary's named conditions, then the time window
    List<String> filters = new ArrayList<>();
    Map<String, List<String>> valuesByColumn = new LinkedHashMap<>();
    for (ValueMatch v : found.values()) {
      if (related != null && v == related.anchor()) {
        filters.add(related.term().relation().anchor() + " = " + SqlWriter.text(v.value()));
        used.add(related.table());
        used.add(related.entity());
        understood.add(
            related.term().term() + ": rows of " + related.entity() + " related to " + v.value());
        continue;
      }
      valuesByColumn.computeIfAbsent(v.column(), k -> new ArrayList<>()).add(v.value());
    }
    Set<String> filtered = new LinkedHashSet<>();
    valuesByColumn.forEach(
        (column, values) -> {
          filters.add(
              values.size() == 1
                  ? column + " = " + SqlWriter.text(values.get(0))
                  : column
                      + " IN ("
                      + String.join(", ", values.stream().map(SqlWriter::text).toList())
                      + ")");
          filtered.add(column.toLowerCase(Locale.ROOT));
          used.add(Ontology.tableOf(column));
          understood.add("filter: " + column + " in " + values);
        });
    for (Match f : of(found, Kind.FILTER, true)) {
      Ontology.Term term = term(f);
      filters.add("(" + term.filter() + ")");
      used.addAll(f.item().tables());
      understood.add("filter: " + term.term() + " = " + term.filter());
    }
    TimeWindows.Window window = TimeWindows.find(q, now);
    if (window != null) {
      String time = timeColumn(metrics, used);
      if (time == null) {
        throw new NotUnderstood(
            "'" + window.said() + "': no time column to filter on among " + used);
      }
      filters.add(time + " >= " + writer.timestamp(window.start()));
      filters.add(time + " < " + writer.timestamp(window.end()));
      used.add(Ontology.tableOf(time));
      understood.add(
          "time: '" + window.said() + "' = [" + window.start() + ", " + window.end() + ")");
    }

    // what to group by (with a measure) or to list (without one)
    boolean grouping = Cues.GROUPING.matcher(q).find();
    boolean listing = Cues.LISTING.matcher(q).find();
    String ranks = withoutNames(q, found);
    Integer n = Cues.topN(q);
    boolean superlative = n == null && Cues.SUPERLATIVE.matcher(ranks).find();
    refuseWhatOnePlanCannotSay(q, ranks);
    if (n == null && !superlative && !Cues.EVERY.matcher(q).find()) {
      refuseUnscopedSuperlativeNames(found);
    }
    Matcher above = Cues.ABOVE_AVERAGE.matcher(q);
    Matcher below = Cues.BELOW_AVERAGE.matcher(q);
    boolean comparing = above.find() || below.find();
    Double threshold = Cues.threshold(q);
    List<Output> dimensions = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    boolean asked =
        grouping || listing || n != null || superlative || comparing || threshold != null;
    for (Match t : tables) {
      String table = t.item().tables().iterator().next();
      // an entity is what the answer is per, unless it only scopes a filter or holds the measure
      // ...or it is ranked by its own column: "the city with the largest population"
      // "the populations of the states": a plural measure is one per row of its table
      boolean ranked =
          (n != null || superlative || pluralMeasure(q, measureSaid))
              && ownMeasure(table, measures);
      boolean per =
          measures.isEmpty()
              || ranked
              || !isFact(table, measures) && (asked || !used.contains(table));
      Entity e = ontology.entity(table);
      if (!per || e.label() == null) {
        continue;
      }
      dimensions.add(new Output(table + "." + e.label(), alias(table + "_" + e.label())));
      keys.add(key(table));
      used.add(table);
      understood.add("per " + table + " (" + e.label() + ")");
    }
    for (Match c : columns) {
      String column = column(c);
      // a measure column or one inside the measure is what is measured, not what it is per
      // nor is a join column to a table the answer already has ("run through": the river's states)
      if (filtered.contains(column.toLowerCase(Locale.ROOT))
          || role(c) == Role.IDENTIFIER
          || role(c) == Role.MEASURE && !measures.isEmpty() && !rankedBySuperlative
          || measures.stream().anyMatch(m -> m.expression().contains(column))
          || joinsUsedTable(column, used)) {
        continue;
      }
      if (role(c) == Role.TIME && window != null) {
        continue;
      }
      dimensions.add(new Output(column, alias(column.replace('.', '_'))));
      used.add(Ontology.tableOf(column));
      understood.add((measures.isEmpty() ? "show " : "per ") + column);
    }
    // per year, per month, 每月, 월별: a period of the measure's time column, in time order
    String period = Cues.period(q);
    Output periodOutput = null;
    if (period != null) {
      String time = timeColumn(metrics, used);
      if (measures.isEmpty() || time == null) {
        throw new NotUnderstood("'per " + period + "' needs something measured with a time column");
      }
      periodOutput = new Output(writer.period(period, time), period);
      dimensions.add(0, periodOutput);
      used.add(Ontology.tableOf(time));
      understood.add("per " + period + " of " + time);
    }
    if (related != null && measures.isEmpty() && dimensions.isEmpty()) {
      // "what borders texas": the related rows themselves
      Entity e = ontology.entity(related.entity());
      dimensions.add(new Output(e.table() + "." + e.label(), alias(e.table() + "_" + e.label())));
    }
    if (measures.isEmpty() && dimensions.isEmpty()) {
      throw new NotUnderstood(
          "what to measure or list: no metric, column or table of domain "
              + ontology.domain()
              + " is in the question; it knows "
              + knownWords());
    }

    // a row's own column per row of its table is its value, however many join rows repeat it
    if (said == null && !measures.isEmpty()) {
      Matcher own = OWN_SUM.matcher(measures.get(0).expression());
      // one group per row of the column's table: its key (or label) is grouped by
      if (own.matches() && keys.contains(key(own.group(1)))) {
        String value = own.group(1) + "." + own.group(2);
        measures.set(0, new Output("MAX(" + value + ")", alias(own.group(2))));
        understood.add("measure: each " + own.group(1) + "'s " + own.group(2));
      }
    }

    // shares, conditions on groups, order and limit
    Having having = null;
    if (comparing) {
      if (measures.isEmpty() || dimensions.isEmpty()) {
        throw new NotUnderstood("a comparison with the average needs something measured per group");
      }
      having = new Having(measures.get(0).expression(), above.find(0) ? ">" : "<", null);
      understood.add("groups " + having.operator() + " the average over the groups");
    } else if (threshold != null) {
      if (measures.isEmpty() || dimensions.isEmpty()) {
        throw new NotUnderstood(
            "the condition on "
                + number(threshold)
                + " has nothing measured per group to apply to");
      }
      having =
          new Having(
              measures.get(0).expression(),
              Cues.MORE_THAN_NUMBER.matcher(q).find() ? ">" : "<",
              threshold);
      understood.add("groups " + having.operator() + " " + number(threshold));
    }
    if (Cues.SHARE.matcher(q).find() && !measures.isEmpty() && !dimensions.isEmpty()) {
      Output m = measures.get(0);
      measures.add(
          new Output(
              "ROUND(100.0 * " + m.expression() + " / SUM(" + m.expression() + ") OVER (), 2)",
              "share_pct"));
      understood.add("share of the total, in percent");
    }
    Order order = null;
    Integer limit = null;
    boolean ascending = Cues.ASCENDING.matcher(ranks).find();
    if (periodOutput != null && n == null && !superlative) {
      order = new Order(periodOutput.alias(), false);
    } else if (!measures.isEmpty() && !dimensions.isEmpty()) {
      order = new Order(measures.get(0).alias(), !ascending);
      if (n != null || superlative) {
        limit = n != null ? n : 1;
        understood.add((ascending ? "bottom " : "top ") + limit);
      }
    } else if (measures.isEmpty()) {
      Matcher ranking = Cues.RANKING.matcher(ranks);
      if (ranking.find()) {
        throw new NotUnderstood(
            "'"
                + ranking.group()
                + "': there is nothing measured to rank by; name a metric or"
                + " measure column of domain "
                + ontology.domain());
      }
      limit = n != null ? n : LIST_LIMIT;
    }
    if (countedTable != null && countsRows(countedTable, used)) {
      String counted = measures.get(0).expression();
      measures.replaceAll(m -> new Output(m.expression().replace(counted, "COUNT(*)"), m.alias()));
      if (having != null) {
        having =
            new Having(
                having.measure().replace(counted, "COUNT(*)"),
                having.operator(),
                having.threshold());
      }
    }
    return new QueryPlan(
        dimensions,
        measures,
        measures.isEmpty() ? List.of() : keys,
        filters,
        having,
        order,
        limit,
        superlative && limit != null,
        related == null ? null : related.term().relation(),
        orderTables(used, measures),
        understood);
  }

  String sql(QueryPlan plan) {
    return writer.write(plan);
  }

  /** The fact table (the measure's first) first, so joins fan out from it. */
  private List<String> orderTables(Set<String> used, List<Output> measures) {
    List<String> out = new ArrayList<>();
    if (!measures.isEmpty()) {
      Matcher m = Pattern.compile("([A-Za-z_]\\w*)\\.\\w+").matcher(measures.get(0).expression());
      if (m.find() && ontology.entity(m.group(1)) != null) {
        out.add(ontology.entity(m.group(1)).table());
      }
    }
    for (String t : used) {
      if (out.stream().noneMatch(x -> x.equalsIgnoreCase(t))) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * Questions whose meaning a single grouped query cannot hold are refused by name rather than
   * answered as a different question: a negation, two rankings, a comparison with another thing's
   * value.
   */
  private void refuseWhatOnePlanCannotSay(String q, String ranks) {
    Matcher negation = Cues.NEGATION.matcher(ranks);
    if (negation.find()) {
      throw new NotUnderstood(
          "'"
              + negation.group()
              + "': the embedded parser does not answer negations; ask for what is, or configure a model (chatbi.llm)");
    }
    Matcher superlatives = Cues.SUPERLATIVE.matcher(ranks);
    List<String> rankings = new ArrayList<>();
    // "the top 5 customers with the most orders": "top" marks the ranking "most" says
    boolean topMarks = Cues.TOP_WITH_THE.matcher(ranks).find();
    while (superlatives.find()) {
      if (!(topMarks && superlatives.group().equalsIgnoreCase("top"))) {
        rankings.add(superlatives.group());
      }
    }
    if (rankings.size() > 1) {
      throw new NotUnderstood(
          String.join(" and ", rankings.stream().map(r -> "'" + r + "'").toList())
              + ": the embedded parser ranks by one thing at a time; ask in two questions, or configure a model (chatbi.llm)");
    }
    Matcher than = Cues.THAN.matcher(q);
    if (than.find()
        && !Cues.ABOVE_AVERAGE.matcher(q).find()
        && !Cues.BELOW_AVERAGE.matcher(q).find()
        && Cues.threshold(q) == null) {
      throw new NotUnderstood(
          "'"
              + than.group()
              + "': the embedded parser compares with an average or a number, not with another thing's value; configure a model (chatbi.llm) for that");
    }
  }

  /**
   * A column named with a superlative ("highest point") read for every row, with nothing to scope
   * it: "the highest point in the us" means the highest of them, which the column's name does not
   * rank. Refused unless a value says whose it is ("the highest point in texas"), something else
   * ranks the rows ("in the smallest state") or every row is asked for ("of all the states").
   */
  private void refuseUnscopedSuperlativeNames(Retrieved found) {
    if (!found.values().isEmpty()) {
      return;
    }
    found.matches().stream()
        .filter(m -> m.said() != null && m.lexical() > 0)
        .filter(m -> m.item().kind() == Kind.COLUMN && role(m) != Role.MEASURE)
        .filter(m -> Cues.SUPERLATIVE.matcher(m.said()).find())
        .findFirst()
        .ifPresent(
            m -> {
              throw new NotUnderstood(
                  "'"
                      + m.said()
                      + "' names a column of each "
                      + m.item().tables().iterator().next()
                      + ", not which is highest or lowest overall; name one (a value), or configure a model (chatbi.llm)");
            });
  }

  /**
   * The question without the words of values and of what is not measured: "the highest point" names
   * a column and "Best Buy" a store; neither ranks anything.
   */
  private String withoutNames(String q, Retrieved found) {
    List<String> names = new ArrayList<>();
    found.values().forEach(v -> names.add(v.text().toLowerCase(Locale.ROOT)));
    found.matches().stream()
        .filter(m -> m.said() != null && m.lexical() > 0)
        .filter(m -> m.item().kind() == Kind.COLUMN && role(m) != Role.MEASURE)
        .forEach(m -> names.add(m.said()));
    StringBuilder out = new StringBuilder(q);
    String lower = q.toLowerCase(Locale.ROOT);
    for (String name : names) {
      int at = Mentions.indexOf(lower, name);
      if (at >= 0 && lower.length() == q.length()) {
        for (int k = at; k < at + name.length(); k++) {
          out.setCharAt(k, ' ');
        }
      }
    }
    return out.toString();
  }

  /** The measure's word is said in the plural: "the populations of". */
  private static boolean pluralMeasure(String q, String said) {
    return said != null
        && !said.endsWith("s")
        && Pattern.compile("(?i)\\b" + Pattern.quote(said) + "s\\b").matcher(q).find();
  }

  /** {@code column} joins one of the tables the answer already uses. */
  private boolean joinsUsedTable(String column, Set<String> used) {
    for (Ontology.Join j : ontology.joins()) {
      for (int i = 0; i < j.from().size(); i++) {
        String partner =
            j.from().get(i).equalsIgnoreCase(column)
                ? j.toTable()
                : j.to().get(i).equalsIgnoreCase(column) ? j.fromTable() : null;
        if (partner != null && used.stream().anyMatch(partner::equalsIgnoreCase)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The measure is one of the table's own columns, aggregated (not a metric across tables). */
  private boolean ownMeasure(String table, List<Output> measures) {
    return !measures.isEmpty()
        && measures
            .get(0)
            .expression()
            .matches("(?i)[A-Z_]+\\(\\s*" + Pattern.quote(table) + "\\.\\w+\\s*\\)");
  }

  /** The match's word comes within two words after the cue ("how many people"). */
  private static boolean rightAfter(String q, Pattern cue, Match m) {
    Matcher c = cue.matcher(q);
    if (!c.find() || m.said() == null) {
      return false;
    }
    int at = Mentions.indexOf(q.toLowerCase(Locale.ROOT), m.said());
    return at >= c.end() && q.substring(c.end(), at).trim().split("\\s+").length <= 2;
  }

  private boolean isFact(String table, List<Output> measures) {
    return measures.stream().anyMatch(m -> m.expression().contains(table + "."));
  }

  /**
   * An English question's capitalised words that are neither its first word nor anything the domain
   * knows ("sales in Paris") would be silently dropped filters: refuse them by name.
   */
  private void checkNamesAreKnown(String q, Retrieved found) {
    Matcher m = Cues.CAPITALISED.matcher(q);
    Set<String> known = new LinkedHashSet<>();
    found.values().forEach(v -> known.add(v.text().toLowerCase(Locale.ROOT)));
    found
        .matches()
        .forEach(x -> x.item().words().forEach(w -> known.add(w.toLowerCase(Locale.ROOT))));
    List<String> unknown = new ArrayList<>();
    while (m.find()) {
      String word = m.group(1);
      boolean first = q.substring(0, m.start()).isBlank();
      String lower = word.toLowerCase(Locale.ROOT);
      boolean partOfKnown = known.stream().anyMatch(k -> Mentions.indexOf(k, lower) >= 0);
      if (!first && !partOfKnown && !Cues.COMMON_CAPITALISED.contains(word)) {
        unknown.add(word);
      }
    }
    // lower-case names too, where a name goes: "the population of denver", "people in austin"
    Matcher named = Cues.AFTER_PREPOSITION.matcher(q.toLowerCase(Locale.ROOT));
    List<String> domainWords = domainWords();
    while (named.find()) {
      String word = named.group(1);
      boolean explained =
          Cues.FUNCTION_WORDS.contains(word)
              || unknown.stream().anyMatch(u -> u.equalsIgnoreCase(word))
              || known.stream().anyMatch(k -> Mentions.indexOf(k, word) >= 0)
              || domainWords.stream().anyMatch(k -> Mentions.indexOf(k, word) >= 0)
              || TimeWindows.find(word, java.time.ZonedDateTime.now()) != null;
      if (!explained) {
        unknown.add(word);
      }
    }
    if (!unknown.isEmpty()) {
      throw new NotUnderstood(
          String.join(", ", unknown.stream().map(w -> "'" + w + "'").toList())
              + (unknown.size() == 1 ? " is" : " are")
              + " not a value or name domain "
              + ontology.domain()
              + " knows; add it to the ontology's values or glossary");
    }
  }

  private List<String> domainWords() {
    List<String> out = new ArrayList<>();
    ontology.glossary().forEach(t -> t.words().forEach(w -> out.add(w.toLowerCase(Locale.ROOT))));
    ontology.entities().forEach(e -> out.add(OntologyBootstrap.words(e.table())));
    ontology
        .entities()
        .forEach(e -> e.attributes().forEach(a -> out.add(OntologyBootstrap.words(a.column()))));
    ontology
        .values()
        .forEach(
            d ->
                d.entries()
                    .forEach(
                        v -> {
                          out.add(v.value().toLowerCase(Locale.ROOT));
                          v.synonyms().forEach(x -> out.add(x.toLowerCase(Locale.ROOT)));
                        }));
    return out;
  }

  /** The count of {@code counted}'s rows (by its key) as the measure; its table. */
  private String count(
      Match counted,
      List<Output> measures,
      Set<String> used,
      List<Match> tables,
      List<String> understood) {
    String countedTable = counted.item().tables().iterator().next();
    measures.add(
        new Output("COUNT(DISTINCT " + key(countedTable) + ")", "count_" + alias(countedTable)));
    used.add(countedTable);
    tables.remove(counted);
    understood.add("measure: count of " + countedTable);
    return countedTable;
  }

  /**
   * A table without an identifier counts its rows: two cities of one name are two cities. Only when
   * every other table joins it to one row (a city's state), so no join repeats a row.
   */
  private boolean countsRows(String table, Set<String> used) {
    Entity e = ontology.entity(table);
    if (e.attributes().stream().anyMatch(a -> a.role() == Role.IDENTIFIER)) {
      return false;
    }
    for (String other : used) {
      if (other.equalsIgnoreCase(table)) {
        continue;
      }
      Cardinality c = ontology.cardinality(table, other);
      boolean toOne = c == Cardinality.MANY_TO_ONE || c == Cardinality.ONE_TO_ONE;
      if (!toOne) {
        return false;
      }
    }
    return true;
  }

  private Match dimensionSaid(List<Match> columns) {
    return columns.stream().filter(m -> role(m) == Role.DIMENSION).findFirst().orElse(null);
  }

  private int dimensions(List<Match> columns) {
    return (int) columns.stream().filter(m -> role(m) == Role.DIMENSION).count();
  }

  private static boolean rankOrCompare(String q) {
    return Cues.RANK_OR_COMPARE.matcher(q).find();
  }

  /**
   * The table a count is of: the one named nearest after the count word ("how many tracks", "有多少
   * 首歌曲"), else nearest before it ("歌曲数量").
   */
  private static Match counted(
      String q, Pattern cuePattern, List<Match> tables, boolean beforeFirst) {
    Matcher cue = cuePattern.matcher(q);
    if (tables.isEmpty() || !cue.find()) {
      return tables.isEmpty() ? null : tables.get(0);
    }
    // English counts what follows the last cue: "the top 5 customers with the most orders"
    int lastStart = cue.start();
    int lastEnd = cue.end();
    while (!beforeFirst && cue.find()) {
      lastStart = cue.start();
      lastEnd = cue.end();
    }
    String lower = q.toLowerCase(Locale.ROOT);
    Match best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (Match t : tables) {
      // where the question says it, plural or not ("tracks" for "track")
      int at = t.said() == null ? -1 : Mentions.indexOf(lower, t.said());
      if (at < 0) {
        continue;
      }
      // the preferred side is nearer than any distance on the other
      int after = at >= lastEnd ? at - lastEnd : -1;
      int before = at < lastStart ? lastStart - at : -1;
      int distance =
          beforeFirst
              ? (before >= 0 ? before : 100_000 + Math.max(after, 0))
              : (after >= 0 ? after : 100_000 + Math.max(before, 0));
      if (distance < bestDistance) {
        bestDistance = distance;
        best = t;
      }
    }
    return best != null ? best : tables.get(0);
  }

  private String timeColumn(List<Match> metrics, Set<String> used) {
    if (!metrics.isEmpty() && term(metrics.get(0)).time() != null) {
      return term(metrics.get(0)).time();
    }
    for (String table : used) {
      Entity e = ontology.entity(table);
      for (Attribute a : e.attributes()) {
        if (a.role() == Role.TIME) {
          return e.table() + "." + a.column();
        }
      }
    }
    return null;
  }

  private String key(String table) {
    Entity e = ontology.entity(table);
    return e.attributes().stream()
        .filter(a -> a.role() == Role.IDENTIFIER)
        .findFirst()
        .map(a -> e.table() + "." + a.column())
        .orElse(e.label() == null ? "*" : e.table() + "." + e.label());
  }

  private static String sql(Aggregation aggregation, String column) {
    return switch (aggregation) {
      case COUNT_DISTINCT -> "COUNT(DISTINCT " + column + ")";
      default -> aggregation.name() + "(" + column + ")";
    };
  }

  private static List<Match> of(Retrieved found, Kind kind, boolean said) {
    return new ArrayList<>(
        found.matches().stream()
            .filter(m -> m.item().kind() == kind && (!said || m.lexical() > 0))
            .toList());
  }

  /** The glossary term of a metric, filter or relation match. */
  private Ontology.Term term(Match match) {
    String key = match.item().key();
    String name = key.substring(key.indexOf(' ') + 1);
    return ontology.glossary().stream()
        .filter(
            t ->
                (t.metric() != null || t.filter() != null || t.relation() != null)
                    && t.term().equals(name))
        .findFirst()
        .orElseThrow();
  }

  /**
   * The relation the question reads its entity through ("states bordering texas") and the one
   * linked value it is anchored on; null without one. Two relations, or none or several anchors,
   * are refused: one grouped query cannot chain them.
   */
  private Anchored relation(String q, Retrieved found) {
    List<Match> relations = of(found, Kind.RELATION, true);
    if (relations.isEmpty()) {
      return null;
    }
    Match said = relations.get(0);
    Ontology.Term term = term(said);
    String lower = q.toLowerCase(Locale.ROOT);
    int first = Mentions.indexOf(lower, said.said());
    int again =
        first < 0
            ? -1
            : term.words().stream()
                .mapToInt(
                    w ->
                        Mentions.indexOf(
                            lower.substring(first + said.said().length()),
                            w.toLowerCase(Locale.ROOT)))
                .max()
                .orElse(-1);
    if (relations.size() > 1 || again >= 0) {
      throw new NotUnderstood(
          "'"
              + said.said()
              + "' of what is itself related: the embedded parser follows one relation; ask in two questions, or configure a model (chatbi.llm)");
    }
    Ontology.Join anchorJoin = ontology.anchorJoin(term.relation());
    String key =
        anchorJoin.from().get(0).equalsIgnoreCase(term.relation().anchor())
            ? anchorJoin.to().get(0)
            : anchorJoin.from().get(0);
    List<ValueMatch> anchors =
        found.values().stream().filter(v -> v.column().equalsIgnoreCase(key)).toList();
    if (anchors.size() != 1) {
      throw new NotUnderstood(
          "'"
              + said.said()
              + "': name the one "
              + Ontology.tableOf(key)
              + " the others are related to (one value of "
              + key
              + ")");
    }
    return new Anchored(term, anchors.get(0), Ontology.tableOf(key));
  }

  /** A relation, the value it is anchored on and the entity whose rows it relates. */
  private record Anchored(Ontology.Term term, ValueMatch anchor, String entity) {
    String table() {
      return Ontology.tableOf(term.relation().anchor());
    }
  }

  private static String column(Match column) {
    return column.item().key().substring("column ".length());
  }

  private Attribute attribute(Match column) {
    String qualified = column(column);
    return ontology.entity(Ontology.tableOf(qualified)).attribute(Ontology.columnOf(qualified));
  }

  private Role role(Match column) {
    return attribute(column).role();
  }

  /** A SQL alias from a name: lower-case letters, digits and underscores. */
  static String alias(String name) {
    String a = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
    return a.isEmpty() || Character.isDigit(a.charAt(0)) ? "v_" + a : a;
  }

  private List<String> tableNames() {
    return ontology.entities().stream().map(Entity::table).toList();
  }

  private List<String> knownWords() {
    List<String> out = new ArrayList<>();
    ontology.glossary().stream().limit(8).forEach(t -> out.add(t.term()));
    return out;
  }

  private static String number(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
