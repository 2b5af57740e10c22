package dev.sonde.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.Language;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryReducerTest {
  private static final DocsAnalyzers ANALYZERS = new DocsAnalyzers();

  private static List<QueryReducer.Term> reduce(String question) {
    return QueryReducer.reduce(question, ANALYZERS);
  }

  private static List<String> texts(String question) {
    return reduce(question).stream().map(QueryReducer.Term::text).toList();
  }

  @Test
  void questionWordsGoAndKeywordsFunctionsAndPhrasesStayWhole() {
    assertEquals(
        List.of("GROUP BY ALL", "arg_max"), texts("How do I use GROUP BY ALL with arg_max()?"));
    List<QueryReducer.Term> terms = reduce("what does \"union by name\" do in read_csv");
    assertEquals(new QueryReducer.Term("union by name", true), terms.get(0));
    assertEquals("read_csv", terms.get(1).text());
    assertEquals(
        List.of("add", "column", "existing", "table"),
        texts("how can I add a column to an existing table"));
  }

  @Test
  void wordsInCapitalsAreMeantAsWritten() {
    assertEquals(List.of("EXPLAIN"), texts("How does EXPLAIN work?"));
    assertEquals(List.of("duckdb", "python", "client"), texts("the duckdb python client"));
  }

  @Test
  void knownSqlPhrasesAreKeptInAnyCase() {
    List<QueryReducer.Term> terms = reduce("how to alter table and add column");
    assertEquals(
        List.of("ALTER TABLE", "ADD COLUMN"), terms.stream().map(QueryReducer.Term::text).toList());
    assertTrue(terms.stream().allMatch(QueryReducer.Term::phrase));
    assertEquals(List.of("ALTER TABLE", "ADD COLUMN"), texts("ALTER TABLE ADD COLUMN"));
    assertEquals(List.of("EXPLAIN ANALYZE", "profile"), texts("EXPLAIN ANALYZE to profile"));
  }

  @Test
  void cjkFunctionWordsAreDroppedAndWordsSplitFromLatin() {
    List<String> zh = texts("如何读取CSV文件");
    assertFalse(zh.contains("如何"), zh.toString());
    assertTrue(zh.contains("CSV") && zh.contains("读取"), zh.toString());
    List<String> ja = texts("ALTER TABLE で列を追加する方法");
    assertEquals("ALTER TABLE", ja.get(0));
    assertFalse(ja.contains("で") || ja.contains("方法"), ja.toString());
    assertTrue(ja.contains("追加"), ja.toString());
    List<String> ko = texts("PIVOT 사용 방법");
    assertEquals(List.of("PIVOT"), ko);
  }

  @Test
  void singleCharactersSplitFromAShortQuestionAreJoinedBack() {
    List<String> words = QueryReducer.cjkWords(ANALYZERS.of(Language.ZH), "递归公用表表达式");
    assertTrue(words.stream().allMatch(w -> w.length() > 1), words.toString());
    assertTrue(words.get(0).startsWith("递归"), words.toString());
  }

  @Test
  void aQuestionOfOnlyStopWordsStillSearchesSomething() {
    assertEquals(List.of("how", "do", "I"), texts("how do I"));
  }
}
