package dev.sonde.chatbi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.chatbi.Retriever.Retrieved;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetrieverTest {
  static final Ontologies SHIPPED = Ontologies.load(Path.of("conf/ontology"));
  static final Retriever RETAIL = new Retriever(SHIPPED.choose("retail"));
  static final Retriever CHINOOK = new Retriever(SHIPPED.choose("chinook"));

  static List<String> keys(Retrieved r) {
    return r.matches().stream().map(m -> m.item().key()).toList();
  }

  static List<String> joins(Retrieved r) {
    return r.joins().stream().map(JoinTree::text).toList();
  }

  @Test
  void theTopProductsBySalesQuestionFindsSalesProductsAndTheirJoinsInEveryLanguage() {
    for (String question :
        List.of(
            "最近一个月销售额最高的前10个产品是什么？",
            "What were the top 10 products by sales in the last month?",
            "先月の売上上位10の商品は？",
            "지난달 매출 상위 10개 상품은?")) {
      Retrieved r = RETAIL.retrieve(question, false);
      assertTrue(keys(r).contains("metric sales"), question + " " + keys(r));
      assertTrue(keys(r).contains("table products"), question + " " + keys(r));
      assertEquals(
          Set.of("order_items", "orders", "products"),
          Set.copyOf(r.tables()),
          question + " " + r.tables());
      assertTrue(
          joins(r).contains("order_items.product_id = products.product_id"), joins(r).toString());
      assertTrue(joins(r).contains("order_items.order_id = orders.order_id"), joins(r).toString());
      assertEquals(List.of(), r.dropped(), question);
    }
  }

  @Test
  void theStoresAboveAverageStockQuestionFindsInventoryStoresAndTheCity() {
    for (String question :
        List.of(
            "Which stores hold more stock than average, with their city?",
            "库存高于平均水平的门店有哪些，以及它们的城市？",
            "在庫が平均より多い店舗とその都市は？",
            "재고가 평균보다 많은 매장과 그 도시는?")) {
      Retrieved r = RETAIL.retrieve(question, false);
      assertTrue(keys(r).contains("metric inventory"), question + " " + keys(r));
      assertTrue(keys(r).contains("table stores"), question + " " + keys(r));
      assertTrue(keys(r).contains("column stores.city"), question + " " + keys(r));
      assertEquals(
          Set.of("inventory", "stores"), Set.copyOf(r.tables()), question + " " + r.tables());
      assertEquals(List.of("inventory.store_id = stores.store_id"), joins(r));
    }
  }

  @Test
  void descriptionsGiveContextOnlyWhenTheQuestionNamesNothing() throws Exception {
    Retrieved vague = RETAIL.retrieve("what is in chinese", false);
    assertEquals(List.of("table categories"), keys(vague));
    assertEquals(
        List.of("its description says [chines]"),
        vague.matches().get(0).why(),
        keys(vague).toString());
    // (stemmed words) what it says is not what the question names: the parser does not answer
    // from it
    assertThrows(
        NotUnderstood.class,
        () ->
            new SemanticParser(RETAIL.ontology(), "duckdb")
                .parse("what is in chinese", vague, java.time.ZonedDateTime.now()));
    // a question that names things is not widened by descriptions (stores' "sales region")
    assertTrue(
        RETAIL.retrieve("sales per product", false).matches().stream()
            .allMatch(m -> m.described() == 0));
  }

  @Test
  void valuesAreLinkedToTheirColumnInAnyLanguageLongestFirst() {
    Retrieved r = RETAIL.retrieve("上海和東京的门店在线上卖了多少？", false);
    List<String> linked = r.values().stream().map(v -> v.column() + "=" + v.value()).toList();
    assertEquals(
        List.of("stores.city=Shanghai", "stores.city=Tokyo", "orders.channel=online"), linked);
    assertTrue(r.tables().containsAll(List.of("stores", "orders")), r.tables().toString());
    Retrieved english = RETAIL.retrieve("sales in East China", false);
    assertEquals("East China", english.values().get(0).value());
    assertFalse(
        RETAIL.retrieve("how was the weather in Chinatown", false).values().stream()
            .anyMatch(v -> v.value().equals("East China")));
  }

  @Test
  void tablesTwoJoinsApartAreConnectedThroughTheOneBetween() {
    Retrieved r = CHINOOK.retrieve("Which artist has the most tracks in the Rock genre?", false);
    assertTrue(
        r.tables().containsAll(List.of("Artist", "Track", "Genre", "Album")),
        r.tables().toString());
    assertTrue(joins(r).contains("Album.ArtistId = Artist.ArtistId"), joins(r).toString());
    assertTrue(joins(r).contains("Track.AlbumId = Album.AlbumId"), joins(r).toString());
    assertEquals("Genre.Name", r.values().get(0).column());
  }

  @Test
  void meaningFindsAMetricNoWordOfWhichIsInTheQuestion() {
    Retrieved words = RETAIL.retrieve("how much money did we make?", false);
    assertFalse(keys(words).contains("metric sales"), keys(words).toString());
    Retrieved meaning = RETAIL.retrieve("how much money did we make?", true);
    assertTrue(meaning.dense());
    assertEquals("metric sales", meaning.matches().get(0).item().key(), meaning.toJson().encode());
    assertTrue(
        meaning.matches().get(0).why().get(0).startsWith("means 'revenue'"),
        meaning.matches().get(0).why().toString());
  }

  @Test
  void theStepDataSaysWhatMatchedAndWhy() {
    var json = RETAIL.retrieve("上海门店的销售额", false).toJson();
    assertEquals("metric sales", json.getJsonArray("matches").getJsonObject(0).getString("item"));
    assertTrue(
        json.getJsonArray("matches").getJsonObject(0).getJsonArray("why").contains("says '销售额'"),
        json.encode());
    assertEquals("Shanghai", json.getJsonArray("values").getJsonObject(0).getString("value"));
    assertFalse(json.getBoolean("dense"));
  }
}
