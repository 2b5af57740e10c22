package dev.sonde.chatbi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.chatbi.Ontology.ValueDictionary;
import dev.sonde.chatbi.Retriever.Retrieved;
import dev.sonde.db.Database;
import dev.sonde.support.DatabaseSonde;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What GeoQuery's geography needs beyond the retail and Chinook domains, on its SQLite database:
 * names read from the database (cities), a name that is a value of several columns, superlatives
 * that say what they rank, ties, and tables whose rows are the things counted.
 */
class ChatBiOnGeographyTest {
  static Ontology geo;
  static Retriever retriever;

  @BeforeAll
  static void fill() throws Exception {
    Database db = DatabaseSonde.get().sonde().databases().own("geo");
    geo =
        Evaluation.await(
            new DatabaseValues()
                .filled(
                    Ontologies.load(Path.of(Evaluation.GEO)).choose("geo"), db, Evaluation.CALL));
    retriever = new Retriever(geo);
  }

  static List<String> values(String question) {
    return retriever.retrieve(question, false).values().stream()
        .map(v -> v.column() + "=" + v.value())
        .toList();
  }

  static List<String> columns(String question) {
    return retriever.retrieve(question, false).matches().stream()
        .map(m -> m.item().key())
        .filter(k -> k.startsWith("column "))
        .toList();
  }

  @Test
  void citiesTheDomainDoesNotListAreReadFromTheDatabase() {
    ValueDictionary cities =
        geo.values().stream()
            .filter(d -> d.column().equals("city.city_name"))
            .findFirst()
            .orElseThrow();
    assertTrue(cities.fromDatabase());
    // 386 cities, 368 names: each name once
    assertEquals(368, cities.entries().size());
    assertEquals(List.of("city.city_name=austin"), values("what is the population of austin"));
  }

  @Test
  void aNameOfSeveralThingsIsTheOneNamedBesideItElseTheFirstDictionarys() {
    assertEquals(
        List.of("river.river_name=missouri"),
        values("what states does the missouri river run through"));
    assertEquals(List.of("state.state_name=missouri"), values("how many rivers are in missouri"));
    assertEquals(List.of("city.city_name=new york"), values("how big is the city of new york"));
    // a state's lowest point is spelled "colorado river"; said so, it is the river colorado
    assertEquals(
        List.of("river.river_name=colorado"),
        values("which states does the colorado river run through"));
  }

  @Test
  void aSuperlativeMeansTheColumnOfWhatIsNamedAfterIt() {
    assertEquals(List.of("column state.area"), columns("what is the largest state"));
    assertEquals(List.of("column city.population"), columns("what is the biggest city in texas"));
    assertEquals(
        List.of("column state.population"), columns("what state has the largest population"));
    // the longest word said names the match, so "population" inside it is not another one
    assertEquals(
        List.of("column state.density"), columns("which state has the largest population density"));
    Retrieved point = retriever.retrieve("what is the highest point in texas", false);
    assertFalse(
        point.matches().stream().anyMatch(m -> m.item().key().contains("mountain_altitude")),
        point.toJson().encode());
  }

  @Test
  void aModelIsGivenTheNamedConditionsTheQuestionUses() {
    String prompt =
        Prompt.user(
            geo,
            retriever.retrieve("what are the major cities in texas", false),
            "what are the major cities in texas",
            java.time.LocalDate.of(2026, 1, 1));
    assertTrue(prompt.contains("\"named_conditions\""), prompt);
    assertTrue(prompt.contains("city.population > 150000"), prompt);
    assertFalse(prompt.contains("river.length > 750"), prompt);
  }

  @Test
  void whatOneQueryCannotHoldIsRefusedNotGuessed() throws Exception {
    ChatBi chatBi = Evaluation.chatBi(Evaluation.GEO, false);
    // a relation of a relation, a relation without its anchor, and the highest of a column whose
    // name only says "highest" of each state
    for (String[] asked :
        List.of(
            new String[] {"what states border states that border colorado", "border"},
            new String[] {"what state borders the least states", "border"},
            new String[] {"what is the highest point in the us", "names a column of each"})) {
      JsonObject envelope =
          Evaluation.await(
              chatBi.ask(asked[0], "geo", ZoneOffset.UTC, Evaluation.CALL, (s, ms) -> {}));
      assertFalse(envelope.getBoolean("success"), envelope.encode());
      assertTrue(
          envelope.getJsonObject("bizresult").getString("error").contains(asked[1]),
          envelope.encode());
    }
  }

  @Test
  void answersEqualHandWrittenSql() throws Exception {
    ChatBi chatBi = Evaluation.chatBi(Evaluation.GEO, false);
    Database db = DatabaseSonde.get().sonde().databases().own("geo");
    List<Evaluation.Question> questions =
        List.of(
            // every state of the longest river (six): the rows tied first, not one of them
            new Evaluation.Question(
                "ties",
                "which states does the longest river run through",
                "SELECT traverse FROM river WHERE length = (SELECT MAX(length) FROM river)",
                false),
            // the largest state's population: ranked by area, population shown
            new Evaluation.Question(
                "rank-and-show",
                "what is the population of the largest state",
                "SELECT population FROM state WHERE area = (SELECT MAX(area) FROM state)",
                false),
            // two cities of one name are two cities
            new Evaluation.Question(
                "count-rows", "how many cities are there", "SELECT COUNT(*) FROM city", false),
            new Evaluation.Question(
                "column-not-ranking",
                "what is the highest point in texas",
                "SELECT highest_point FROM highlow WHERE state_name = 'texas'",
                false),
            new Evaluation.Question(
                "database-value",
                "how many people live in sacramento",
                "SELECT population FROM city WHERE city_name = 'sacramento'",
                false),
            // a glossary filter: the domain says what "major" means for a city
            new Evaluation.Question(
                "named-condition",
                "what are the major cities in texas",
                "SELECT city_name FROM city WHERE population > 150000 AND state_name = 'texas'",
                false),
            new Evaluation.Question(
                "where",
                "where is austin",
                "SELECT state_name FROM city WHERE city_name = 'austin'",
                false),
            // a relation: the states whose border_info row pairs them with texas
            new Evaluation.Question(
                "relation",
                "what is the largest state bordering texas",
                "SELECT state_name FROM state WHERE area = (SELECT MAX(area) FROM state"
                    + " WHERE state_name IN (SELECT border FROM border_info"
                    + " WHERE state_name = 'texas'))",
                false),
            new Evaluation.Question(
                "relation-count",
                "how many states border tennessee",
                "SELECT COUNT(border) FROM border_info WHERE state_name = 'tennessee'",
                false),
            // a plural measure is one per row; the river table lists louisiana twice, so a join
            // would sum its population twice: the river only filters, as a semi-join
            new Evaluation.Question(
                "plural-measure",
                "what are the populations of the states through which the mississippi runs",
                "SELECT population FROM state WHERE state_name IN"
                    + " (SELECT traverse FROM river WHERE river_name = 'mississippi')",
                false),
            new Evaluation.Question(
                "join-column",
                "how many states does the colorado river run through",
                "SELECT COUNT(DISTINCT traverse) FROM river WHERE river_name = 'colorado'",
                false),
            // the river table lists the san juan twice in colorado: summing each state's area
            // over its join rows would make colorado the largest; it is new mexico
            new Evaluation.Question(
                "own-value",
                "what is the largest state the san juan river runs through",
                "SELECT state_name FROM state WHERE area = (SELECT MAX(area) FROM state"
                    + " WHERE state_name IN (SELECT traverse FROM river"
                    + " WHERE river_name = 'san juan'))",
                false),
            // the city's population, not its state's: the finer of two tables in question
            new Evaluation.Question(
                "finest-grain",
                "what is the population of boston massachusetts",
                "SELECT population FROM city WHERE city_name = 'boston'"
                    + " AND state_name = 'massachusetts'",
                false));
    List<Evaluation.Outcome> outcomes = Evaluation.run(chatBi, db, "geo", questions);
    String report = Evaluation.report(outcomes);
    assertTrue(outcomes.stream().allMatch(Evaluation.Outcome::correct), report);
  }
}
