package dev.sonde.chatbi;

import dev.sonde.chatbi.Retriever.Match;
import dev.sonde.chatbi.Retriever.ValueMatch;
import dev.sonde.core.Language;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every word of the question must be accounted for before an answer is given: a content word that
 * no name, value, time window or cue of the plan explains, and a cue the plan read but did not act
 * on (a share, an average, a grouping), turn the answer into a refusal naming them. A word silently
 * dropped answers a different question; a refusal costs a rephrasing.
 */
final class WordAccount {
  /** English words that carry no content of their own in a business question. */
  private static final Set<String> ENGLISH =
      Set.copyOf(
          List.of(
              """
          a an the of in on at to for from by with without into onto over under about across through
          and or but as than then so if is are was were be been being am do does did done have
          has had having can could would should will shall may might must what which who whom
          whose where when why how many much there here it its this that these those they them
          their theirs we us our ours you your yours i me my mine he him his she her hers one ones
          all each every any some both either neither per show list give tell find get display
          please let see know want need like just also only still ever yet up out off down
          number numbers amount total sum count counts value values figure figures data
          overall altogether together whole entire including include includes included
          name names named called every other others same different
          currently current now today so far far ago since
          zero one two three four five six seven eight nine ten eleven twelve twenty hundred
          live lives lived living reside resides resided located situated come comes came exist
          exists existed contain contains contained issue issued make made happen happened
          record recorded registered belong belongs belonged catalogue catalog hold holds held
          holding keep keeps kept carry carries carried
          """
                  .strip()
                  .split("\\s+")));

  /** Chinese, Japanese and Korean particles, question words and polite forms. */
  private static final Pattern CJK_FILLER =
      Pattern.compile(
          "水平|情况|请|請|麻烦|帮我|给我|告诉我|列出|显示|查询|统计|一下|一共|总共|分别|是多少|多少|是什么|什么|哪些|哪个|哪"
              + "|的|了|是|有|在|和|与|及|跟|吗|呢|吧|呀|啊|都|也|个|位|名|家|种|些|中|里|内|从|对|把|被|为|按|以|及其"
              + "|を教えて(?:ください)?|教えて(?:ください)?|見せて(?:ください)?|ください|下さい|ですか|ますか|でしょうか"
              + "|ですか|でした|ました|ます|です|ある|いる|あり|おり|して|した|する|される|された|という|といった"
              + "|について|における|それぞれ|ごと|全て|すべて|全部|一覧|何|どの|どれ|いくつ|いくら|誰|だれ"
              + "|の|は|が|を|に|で|と|も|へ|や|か|ね|よ|から|まで|だけ|など"
              + "|알려\\s*주세요|알려줘|보여\\s*주세요|보여줘|주세요|해\\s*주세요|입니까|인가요|있나요|인지|나요|까요|뭐야|뭐예요|뭔가요|무엇|몇|어떤|어느|누구"
              + "|은|는|이|가|을|를|의|에서|에게|에|로|으로|와|과|도|요|및|별로|마다|각|모두|전체|모든|전부");

  /** A word before a value that enumerates its kind: "each sales support agent", "which agent". */
  private static final Pattern ENUMERATED_BEFORE =
      Pattern.compile("(?i)(?:\\b(?:each|every|per|which|by)\\s+|每个|每位|每一位|各)$");

  /** A suffix after a value that groups by its kind: "관리자별", "担当者ごと". */
  private static final Pattern ENUMERATED_AFTER = Pattern.compile("^(?:별|ごと|別|마다)");

  private static final Pattern YEAR = Pattern.compile("(?<!\\d)(?:19|20)\\d{2}(?!\\d)");

  /** A comparison in Chinese, Japanese or Korean: "比…长", "…より長い", "…보다 긴". */
  private static final Pattern COMPARED = Pattern.compile("보다|より|比(?!例|率|重)");

  private WordAccount() {}

  /** Refuses when {@code d}'s plan leaves a content word or a cue of its question unused. */
  static void check(PlanDraft d, Grounding grounding) {
    String domain = grounding.ontology().domain();
    String q = d.q.toLowerCase(Locale.ROOT);
    // every phrase is found on the question as written, all at once: one blanked phrase must not
    // hide another that overlaps it ("highest" is a cue and part of the column "highest point")
    char[] rest = q.toCharArray();
    for (Pattern cue : Cues.all()) {
      Matcher m = cue.matcher(q);
      while (m.find()) {
        Arrays.fill(rest, m.start(), m.end(), ' ');
      }
    }
    // a name the plan used accounts for every word it goes by, not only the one retrieval scored;
    // one it found but did not use accounts for nothing
    String planText = planText(d);
    for (Match m : d.found.matches()) {
      if (!used(m, d, planText, grounding)) {
        continue;
      }
      blank(q, rest, m.said());
      for (String word : m.item().words()) {
        blank(q, rest, word);
      }
    }
    for (ValueMatch v : d.found.values()) {
      blank(q, rest, v.text());
    }
    if (d.window != null) {
      blank(q, rest, d.window.said());
    }
    List<String> unused = leftover(new String(rest));
    if (!unused.isEmpty()) {
      throw new NotUnderstood(
          "I did not use "
              + String.join(", ", unused.stream().map(w -> "'" + w + "'").toList())
              + ": no name, value or phrasing of domain "
              + domain
              + " accounts for "
              + (unused.size() == 1 ? "it" : "them")
              + "; rephrase with the names it knows, or add "
              + (unused.size() == 1 ? "it" : "them")
              + " to the domain's glossary");
    }
    cuesActedOn(d);
  }

  /** Every expression of the plan so far, lower case: what a used name must appear in. */
  private static String planText(PlanDraft d) {
    StringBuilder text = new StringBuilder();
    d.measures.forEach(m -> text.append(m.expression()).append('\n'));
    d.dimensions.forEach(m -> text.append(m.expression()).append('\n'));
    d.keys.forEach(k -> text.append(k).append('\n'));
    d.filters.forEach(f -> text.append(f).append('\n'));
    if (d.having != null) {
      text.append(d.having.measure()).append('\n');
    }
    if (d.periodOutput != null) {
      text.append(d.periodOutput.expression()).append('\n');
    }
    return text.toString().toLowerCase(Locale.ROOT);
  }

  /** Whether the plan used what {@code m} names: its column, metric, filter, table or relation. */
  private static boolean used(Match m, PlanDraft d, String planText, Grounding grounding) {
    return switch (m.item().kind()) {
      // a column of a table the plan uses that is no measure (a name, a key, a relation's column
      // the joins use) accounts for its words; a measure must be in the plan to
      case COLUMN ->
          planText.contains(Grounding.column(m).toLowerCase(Locale.ROOT))
              || (!isMeasure(m, grounding) && tableUsed(m, d));
      case METRIC -> planText.contains(grounding.term(m).metric().toLowerCase(Locale.ROOT));
      case FILTER -> planText.contains(grounding.term(m).filter().toLowerCase(Locale.ROOT));
      case TABLE -> tableUsed(m, d);
      case RELATION -> d.related != null;
    };
  }

  private static boolean tableUsed(Match m, PlanDraft d) {
    return m.item().tables().stream()
        .anyMatch(t -> d.used.stream().anyMatch(u -> u.equalsIgnoreCase(t)));
  }

  private static boolean isMeasure(Match m, Grounding grounding) {
    try {
      return grounding.role(m) == Ontology.Role.MEASURE;
    } catch (RuntimeException e) {
      // a column the domain's entities do not describe: no measure of theirs
      return false;
    }
  }

  /** A cue the question says must have shaped the plan. */
  private static void cuesActedOn(PlanDraft d) {
    Matcher share = Cues.SHARE.matcher(d.q);
    if (share.find() && d.understood.stream().noneMatch(u -> u.startsWith("share"))) {
      throw new NotUnderstood(
          "'"
              + share.group()
              + "': the plan has no share of a total to give; ask for the parts"
              + " and the total in two questions");
    }
    if (d.said == Ontology.Aggregation.AVG
        && d.measures.stream()
            .noneMatch(m -> m.expression().toUpperCase(Locale.ROOT).contains("AVG("))) {
      throw new NotUnderstood(
          "'average': the plan found nothing to average; name the measure to average");
    }
    if (share.reset().find()
        && d.understood.stream().anyMatch(u -> u.startsWith("share"))
        && !d.filtered.isEmpty()) {
      throw new NotUnderstood(
          "'"
              + share.group()
              + "' of one part: its filter would cut the total too; ask for the share per "
              + d.filtered.iterator().next()
              + " instead");
    }
    Matcher average = Cues.ABOVE_AVERAGE.matcher(d.q);
    Matcher below = Cues.BELOW_AVERAGE.matcher(d.q);
    if ((average.find() || below.find()) && (d.having == null || d.dimensions.isEmpty())) {
      throw new NotUnderstood(
          "a comparison with the average: the embedded parser compares groups with the groups'"
              + " average, and finds no groups here; ask per group, or configure a model"
              + " (chatbi.llm)");
    }
    Matcher compared = COMPARED.matcher(d.q);
    if (compared.find() && d.having == null && d.threshold == null) {
      throw new NotUnderstood(
          "'"
              + compared.group()
              + "': the embedded parser compares groups with their average or a number, and found"
              + " neither here; configure a model (chatbi.llm) for other comparisons");
    }
    Matcher years = YEAR.matcher(d.q);
    Set<String> named = new LinkedHashSet<>();
    while (years.find()) {
      named.add(years.group());
    }
    if (named.size() > 1
        && (d.window == null || !named.stream().allMatch(y -> d.window.said().contains(y)))) {
      throw new NotUnderstood(
          "the years "
              + named
              + ": the embedded parser reads one period; ask for each, or for a range (from "
              + named.iterator().next()
              + " to ...)");
    }
    String lower = d.q.toLowerCase(Locale.ROOT);
    for (ValueMatch v : d.found.values()) {
      int at = Mentions.indexOf(lower, v.text().toLowerCase(Locale.ROOT));
      if (at < 0) {
        continue;
      }
      String before = lower.substring(0, at);
      String after = lower.substring(at + v.text().length());
      String table = Ontology.tableOf(v.column());
      boolean groupedByIt =
          d.dimensions.stream()
                  .anyMatch(o -> Ontology.tableOf(o.expression()).equalsIgnoreCase(table))
              || d.keys.stream().anyMatch(k -> Ontology.tableOf(k).equalsIgnoreCase(table));
      if ((ENUMERATED_BEFORE.matcher(before).find() || ENUMERATED_AFTER.matcher(after).find())
          && !groupedByIt) {
        throw new NotUnderstood(
            "'"
                + v.text()
                + "' names a kind of "
                + table
                + " to go through one by one, not a filter to apply once; ask per "
                + table
                + " with "
                + v.column()
                + " "
                + v.value());
      }
    }
    Matcher grouping = Cues.GROUPING.matcher(d.q);
    if (grouping.find()
        && !d.measures.isEmpty()
        && d.dimensions.isEmpty()
        && d.periodOutput == null) {
      throw new NotUnderstood(
          "'"
              + grouping.group().strip()
              + "': the plan found nothing to group by; name what to break the figure down by");
    }
  }

  /** Blanks in {@code rest} every mention of {@code said} in {@code question}. */
  private static void blank(String question, char[] rest, String said) {
    if (said == null || said.isBlank()) {
      return;
    }
    String lower = said.toLowerCase(Locale.ROOT);
    int at = Mentions.indexOf(question, lower);
    while (at >= 0) {
      int end = at + lower.length();
      // the plural Mentions read with it
      while (end < question.length()
          && Character.isLetter(question.charAt(end))
          && !Language.isCjk(question.codePointAt(end))) {
        end++;
      }
      Arrays.fill(rest, at, end, ' ');
      int next = Mentions.indexOf(question.substring(end), lower);
      at = next < 0 ? -1 : end + next;
    }
  }

  /** The content words left: English words off the list, and runs of two or more CJK characters. */
  private static List<String> leftover(String rest) {
    Set<String> out = new LinkedHashSet<>();
    String cjkFree = CJK_FILLER.matcher(rest).replaceAll(" ");
    StringBuilder run = new StringBuilder();
    StringBuilder word = new StringBuilder();
    for (int i = 0; i <= cjkFree.length(); i++) {
      int c = i < cjkFree.length() ? cjkFree.codePointAt(i) : ' ';
      if (Language.isCjk(c)) {
        run.appendCodePoint(c);
        flushWord(word, out);
        continue;
      }
      if (run.codePointCount(0, run.length()) >= 2) {
        out.add(run.toString());
      }
      run.setLength(0);
      if (Character.isLetter(c)) {
        word.appendCodePoint(c);
      } else {
        flushWord(word, out);
      }
    }
    return new ArrayList<>(out);
  }

  private static void flushWord(StringBuilder word, Set<String> out) {
    String w = word.toString();
    word.setLength(0);
    if (w.length() > 1
        && !ENGLISH.contains(w)
        && !ENGLISH.contains(singular(w))
        && !Cues.FUNCTION_WORDS.contains(w)) {
      out.add(w);
    }
  }

  private static String singular(String w) {
    return w.endsWith("s") ? w.substring(0, w.length() - 1) : w;
  }
}
