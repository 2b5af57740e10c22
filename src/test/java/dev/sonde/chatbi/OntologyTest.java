package dev.sonde.chatbi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.chatbi.Ontology.Aggregation;
import dev.sonde.chatbi.Ontology.Cardinality;
import dev.sonde.chatbi.Ontology.Join;
import dev.sonde.chatbi.Ontology.Role;
import dev.sonde.config.SondeConfig;
import dev.sonde.core.CallerException;
import dev.sonde.db.Database;
import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.InProcessSonde;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OntologyTest {
  static final Path SHIPPED = Path.of("conf/ontology");

  static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  static Database database(String name) {
    return DatabaseSonde.get().sonde().databases().own(name);
  }

  static boolean joined(Ontology o, String from, String to) {
    return o.joins().stream()
        .anyMatch(j -> j.from().equals(List.of(from)) && j.to().equals(List.of(to)));
  }

  @Test
  void theShippedDomainsLoadAndNameOnlyWhatTheirDatabasesHave() throws Exception {
    Ontologies domains = Ontologies.load(SHIPPED);
    assertEquals(Map.of(), domains.refused());
    assertEquals(
        Set.of("retail", "chinook"),
        Set.copyOf(domains.all().stream().map(Ontology::domain).toList()));
    assertEquals("retail", domains.choose(null).domain(), "retail is the default");
    assertEquals("chinook", domains.choose("chinook").domain());
    for (Ontology o : domains.all()) {
      String connection = o.domain().equals("retail") ? "demo" : "chinook";
      assertEquals(connection, o.connection());
      assertEquals(
          List.of(), o.unknownInCatalog(await(OntologyBootstrap.catalog(database(connection)))));
      for (String language : List.of("en", "zh", "ja", "ko")) {
        assertTrue(
            o.glossary().stream().anyMatch(t -> t.synonyms().containsKey(language)),
            o.domain() + " has " + language + " synonyms");
      }
    }
    Ontology retail = domains.choose("retail");
    Ontology.Term sales =
        retail.glossary().stream().filter(t -> t.words().contains("销售额")).findFirst().orElseThrow();
    assertEquals("SUM(order_items.quantity * order_items.unit_price)", sales.metric());
    assertTrue(
        retail.values().stream()
            .filter(v -> v.column().equals("stores.city"))
            .flatMap(v -> v.entries().stream())
            .anyMatch(e -> e.value().equals("Shanghai") && e.synonyms().contains("上海")));
  }

  @Test
  void aDomainWrittenForAnotherDatabaseIsToldWhatItLacks() throws Exception {
    Ontology chinook = Ontologies.load(SHIPPED).choose("chinook");
    List<String> unknown =
        chinook.unknownInCatalog(await(OntologyBootstrap.catalog(database("demo"))));
    assertTrue(unknown.contains("table Track is not in connection chinook"), unknown.toString());
  }

  @Test
  void mistakesInAFileSayWhereAndWhatToChange() {
    IOException unknownField =
        assertThrows(
            IOException.class, () -> Ontologies.read("domain: d\nconnection: c\nentites: []\n"));
    assertTrue(
        unknownField
            .getMessage()
            .startsWith("unknown field 'entites' at the top level; the fields"),
        unknownField.getMessage());
    IOException badRole =
        assertThrows(
            IOException.class,
            () ->
                Ontologies.read(
                    "domain: d\nconnection: c\nentities:\n  - table: t\n    attributes:\n"
                        + "      - {column: a, role: metric}\n"));
    assertEquals(
        "'metric' in entities[0].attributes[0].role is not accepted;"
            + " use one of [identifier, dimension, time, measure]",
        badRole.getMessage());
  }

  @Test
  void problemsNameTheEntryAndTheFix() throws IOException {
    Ontology o =
        Ontologies.read(
            String.join(
                "\n",
                "format: sonde.ontology",
                "version: 2",
                "domain: shop floor",
                "connection: c",
                "entities:",
                "  - table: orders",
                "    label: title",
                "    attributes: [{column: id, role: identifier}, {column: total}]",
                "glossary:",
                "  - {term: sales, table: orders, metric: SUM(orders.total)}",
                "  - {term: city, column: stores.city, synonyms: {fr: [ville]}}",
                "  - {term: big order, filter: total > 100}",
                "  - {term: old, filter: archive.orders.year < 2000}",
                "  - {term: resold, relation: {anchor: orders.total, related: orders.id}}",
                "joins:",
                "  - {from: [orders.a, orders.b], to: customers.id}",
                ""));
    List<String> problems = o.problems();
    List<String> expected =
        List.of(
            "version 2 is newer than this Sonde reads (1)",
            "domain must be 1-64 letters, digits, '_' or '-'",
            "entities[0]: label title is not one of its attributes",
            "entities[0].attributes[1] (total): role is missing: identifier, dimension, time or measure",
            "glossary[0] (sales): give exactly one of table, column, metric, filter or relation",
            "glossary[1] (city): column 'stores.city': table stores is not an entity",
            "glossary[1] (city): synonyms language 'fr': use en, zh, ja or ko",
            "glossary[2] (big order): write the columns as table.column in 'total > 100'",
            "glossary[3] (old): table archive is not an entity",
            "glossary[4] (resold): relation anchor orders.total is in no join; declare its join",
            "joins[0]: from and to need the same number of columns (at least one)");
    assertEquals(expected, problems);
  }

  @Test
  void aDomainIsChosenByNameOrAsTheOnlyOrTheDefaultOne(@TempDir Path folder) throws IOException {
    String body =
        "connection: c\nentities: [{table: t, attributes: [{column: a, role: dimension}]}]\n";
    Files.writeString(folder.resolve("a.yaml"), "domain: a\n" + body);
    assertEquals("a", Ontologies.load(folder).choose(null).domain());
    Files.writeString(folder.resolve("b.yaml"), "domain: b\n" + body);
    CallerException none =
        assertThrows(CallerException.class, () -> Ontologies.load(folder).choose(null));
    assertEquals(
        "several domains and none is marked default; name one in domain: [a, b]",
        none.getMessage());
    Files.writeString(folder.resolve("c.yaml"), "domain: c\ndefault: true\n" + body);
    assertEquals("c", Ontologies.load(folder).choose(null).domain());
    CallerException unknown =
        assertThrows(CallerException.class, () -> Ontologies.load(folder).choose("d"));
    assertEquals("no domain 'd'; domains: [a, b, c]", unknown.getMessage());
    Files.writeString(folder.resolve("d.yaml"), "domain: d\nconnection: c\n");
    Ontologies withBroken = Ontologies.load(folder);
    assertEquals(
        "entities is empty: list the tables this domain covers",
        withBroken.refused().get("d.yaml"));
    CallerException refused = assertThrows(CallerException.class, () -> withBroken.choose("d"));
    assertTrue(
        refused.getMessage().contains("its file was refused: entities is empty"),
        refused.getMessage());
  }

  @Test
  void theDemoDatabaseBootstrapsIntoAUsableDomainThatSavesAndReadsBack(@TempDir Path folder)
      throws Exception {
    Ontology o = await(OntologyBootstrap.from(database("demo"), "demo", "shop"));
    assertEquals(List.of(), o.problems());
    assertEquals(Role.TIME, o.entity("orders").attribute("ordered_at").role());
    assertEquals(Role.IDENTIFIER, o.entity("orders").attribute("store_id").role());
    assertEquals(Role.DIMENSION, o.entity("stores").attribute("city").role());
    assertEquals(Role.MEASURE, o.entity("order_items").attribute("quantity").role());
    assertEquals(Aggregation.SUM, o.entity("order_items").attribute("quantity").aggregation());
    assertEquals(Aggregation.AVG, o.entity("products").attribute("unit_price").aggregation());
    assertEquals("name", o.entity("products").label());
    assertEquals("Stock on hand per store and product", o.entity("inventory").description());
    assertTrue(joined(o, "order_items.order_id", "orders.order_id"), o.joins().toString());
    assertTrue(joined(o, "inventory.store_id", "stores.store_id"), o.joins().toString());
    Join items =
        o.joins().stream()
            .filter(j -> j.from().equals(List.of("order_items.product_id")))
            .findFirst()
            .orElseThrow();
    assertEquals(Cardinality.MANY_TO_ONE, items.cardinality());
    assertEquals("foreign_key", items.source());
    assertTrue(
        o.values().stream()
            .anyMatch(
                v ->
                    v.column().equals("stores.city")
                        && v.entries().stream().anyMatch(e -> e.value().equals("Shanghai"))),
        "a value dictionary links Shanghai to stores.city");
    assertFalse(
        o.values().stream().anyMatch(v -> v.column().equals("customers.email")),
        "20,000 e-mail addresses are not a dictionary");
    assertTrue(
        o.glossary().stream()
            .anyMatch(t -> "order_items".equals(t.table()) && t.words().contains("order item")));

    Path saved = Ontologies.save(folder, o);
    assertEquals("shop.yaml", saved.getFileName().toString());
    Ontologies reread = Ontologies.load(folder);
    assertEquals(Map.of(), reread.refused());
    assertEquals(o, reread.choose("shop"));
  }

  @Test
  void aBootstrappedChinookIsSavedOnceAndAnswersAQuestion(@TempDir Path folder) throws Exception {
    Path saved = await(OntologyBootstrap.into(database("chinook"), "chinook", folder));
    assertEquals(folder.resolve("chinook.yaml"), saved);
    Exception again =
        assertThrows(
            Exception.class,
            () -> await(OntologyBootstrap.into(database("chinook"), "chinook", folder)));
    assertTrue(again.getCause().getMessage().contains("exists; edit it"), again.getMessage());
    var sonde = DatabaseSonde.get().sonde();
    SondeConfig.ChatBiConfig d = SondeConfig.defaults().chatbi();
    ChatBi chatBi =
        new ChatBi(
            sonde.vertx(),
            sonde.databases(),
            new SondeConfig.ChatBiConfig(folder.toString(), 200, 5, 7, 1000, false, d.llm()),
            folder.resolve("data"),
            Map.of());
    JsonObject envelope =
        Evaluation.await(
            chatBi.ask(
                "How many tracks are there?",
                null,
                ZoneOffset.UTC,
                Evaluation.CALL,
                (s, ms) -> {}));
    assertTrue(envelope.getBoolean("success"), envelope.encode());
    JsonObject row =
        envelope
            .getJsonObject("bizresult")
            .getJsonObject("data")
            .getJsonArray("rows")
            .getJsonObject(0);
    assertEquals(3503, ((Number) row.getValue(row.fieldNames().iterator().next())).intValue());
    // 3,503 track names are too many to list: the saved domain reads them when asked
    Ontology bootstrapped = Ontologies.load(folder).choose("chinook");
    assertTrue(
        bootstrapped.values().stream()
            .anyMatch(
                v -> v.column().equals("Track.Name") && v.fromDatabase() && v.entries().isEmpty()),
        bootstrapped.values().toString());
    JsonObject named =
        Evaluation.await(
            chatBi.ask(
                "How many tracks are named Princess of the Dawn?",
                null,
                ZoneOffset.UTC,
                Evaluation.CALL,
                (s, ms) -> {}));
    assertTrue(named.getBoolean("success"), named.encode());
    assertTrue(
        named.getJsonObject("bizresult").getString("sql").contains("'Princess of the Dawn'"),
        named.encode());
  }

  @Test
  void aDatabaseWithoutKeysStillGetsItsJoinsFromColumnNames() throws Exception {
    Path copy = Files.createTempFile("geoquery-", ".sqlite");
    Files.copy(
        Path.of("../shared/datasets/geoquery/geography-db.added-in-2020.sqlite"),
        copy,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    try (InProcessSonde sonde =
        new InProcessSonde(
            Map.of(
                "databases.connections.geo.type",
                "jdbc",
                "databases.connections.geo.url",
                "jdbc:sqlite:" + copy))) {
      Ontology o =
          await(OntologyBootstrap.from(sonde.sonde().databases().own("geo"), "geo", "geo"));
      assertEquals(List.of(), o.problems());
      assertTrue(joined(o, "city.state_name", "state.state_name"), o.joins().toString());
      assertTrue(joined(o, "border_info.state_name", "state.state_name"), o.joins().toString());
      assertEquals(Role.MEASURE, o.entity("state").attribute("population").role());
      assertNotNull(o.entity("river"));
    }
  }
}
