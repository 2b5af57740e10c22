package dev.sonde.chatbi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 21: chat_bi never answers a different question. On the evaluation sets written before its
 * rules changed (Chinook and the retail demo, four languages, dev and held-out parts), with the
 * curated domains, no answer may report success with other rows than the gold SQL's: a refusal that
 * says why is fine. A held-out set's misses are named by id, class and language only, so nobody
 * tunes to its questions.
 */
class ChatBiTrustTest {
  /**
   * The wrong answers each set may still hold, as measured when the rules last changed: a ratchet
   * (issue 21 stays open until every one is 0); the dev sets, tuned on, are held at 0.
   */
  static final java.util.Map<String, Integer> STILL_WRONG =
      java.util.Map.of(
          "chinook-dev", 0, "retail-dev", 0, "chinook-heldout", 4, "retail-heldout", 1);

  @ParameterizedTest
  @ValueSource(strings = {"chinook-dev", "chinook-heldout", "retail-dev", "retail-heldout"})
  void noQuestionIsAnsweredWrongly(String set) throws Exception {
    String domain = set.startsWith("chinook") ? "chinook" : "retail";
    List<Evaluation.Outcome> outcomes =
        Evaluation.newSet(Evaluation.chatBi(Evaluation.CHINOOK, false), set, domain);
    boolean heldOut = set.endsWith("heldout");
    String report =
        Evaluation.verdicts(outcomes) + (heldOut ? "" : "\n" + Evaluation.report(outcomes));
    Files.writeString(Path.of("target/chatbi-trust-" + set + ".md"), report);
    List<String> wrong = Evaluation.wrongIds(outcomes);
    assertTrue(
        wrong.size() <= STILL_WRONG.get(set),
        "answered wrongly: " + wrong + "\n" + (heldOut ? Evaluation.verdicts(outcomes) : report));
  }
}
