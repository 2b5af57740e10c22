package dev.sonde.chatbi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The embedded generator's execution accuracy by class on the Chinook question set (67 questions,
 * English and Chinese) and on GeoQuery's question-split test set, written to
 * target/chatbi-eval-*.md, with chatbi.embeddings off (the default) and on. The floors guard
 * against regressions; make bench reports the same figures with timings and GeoQuery's train and
 * dev splits.
 */
class ChatBiEvalTest {
  @ParameterizedTest(name = "embeddings {0}")
  @ValueSource(booleans = {false, true})
  void geoQueryTestQuestionsOverADomainWrittenWithoutThem(boolean embeddings) throws Exception {
    List<Evaluation.Outcome> outcomes =
        Evaluation.geoQuery(Evaluation.chatBi(Evaluation.GEO, embeddings), "test");
    String report = Evaluation.report(outcomes);
    Files.writeString(
        Path.of("target/chatbi-eval-geoquery-embeddings-" + embeddings + ".md"), report);
    // measured 206 of 277 (74.4%) as result sets in both modes: the 60% target is the
    // floor; see make bench for train and dev
    assertTrue(Evaluation.accuracy(outcomes) >= 0.6, report);
  }

  @ParameterizedTest(name = "embeddings {0}")
  @ValueSource(booleans = {false, true})
  void chinookQuestionsAreAnsweredWithTheRightRows(boolean embeddings) throws Exception {
    List<Evaluation.Outcome> outcomes =
        Evaluation.chinook(Evaluation.chatBi(Evaluation.CHINOOK, embeddings));
    String report = Evaluation.report(outcomes);
    Files.writeString(
        Path.of("target/chatbi-eval-chinook-embeddings-" + embeddings + ".md"), report);
    // measured 66 of 67 in both modes (the rules were tuned on this set: GeoQuery is the held-out
    // check)
    assertTrue(Evaluation.accuracy(outcomes) >= 0.9, report);
  }
}
