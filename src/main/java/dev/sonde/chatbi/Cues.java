package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Aggregation;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The semantic parser's lexicon: the words and phrases that cue a measure, a count, a ranking, a
 * comparison, a grouping or a period, each one pattern holding its English, Chinese, Japanese and
 * Korean forms, and what the parser reads from them alone.
 */
final class Cues {
  private Cues() {}

  /** A counter or unit between a number and its comparison: "20개 미만", "5分以上", "3曲以上". */
  private static final String COUNTER =
      "(?:개|명|건|곡|원|달러|분|초|년|개월|個|件|人|円|元|美元|ドル|曲|枚|分|秒|年|か月|ヶ月|首|张|位|名)?\\s*";

  /** Small counts spelled out in English: "the five largest". */
  private static final String NUMBER_WORDS =
      "one|two|three|four|five|six|seven|eight|nine|ten|twenty";

  /** A top-N or bottom-N and its N: "top 5", "前十", "上位3", "상위 3", "the 3 states with the most". */
  static final Pattern TOP_N =
      Pattern.compile(
          "(?i)(?:top|first|best|bottom|worst)\\s*(\\d+)|(\\d+)\\s+(?:best|top|highest|largest|"
              + "biggest|most|lowest|smallest|least|worst|longest|shortest|tallest|oldest|newest"
              + "|cheapest|greatest|fewest|densest)|前\\s*(\\d+|[一二两三四五六七八九十]+)\\s*[个名位家款种]?"
              + "|(?:上位|下位|トップ|ベスト|ワースト)\\s*(\\d+)|(?:상위|하위|탑|톱)\\s*(\\d+)|(\\d+)\\s*(?:위|位)"
              + "|最[多少高低大小好差]的?\\s*(\\d+|[一二两三四五六七八九十]+)\\s*[个名位家款种]"
              + "|\\b(\\d{1,3}|"
              + NUMBER_WORDS
              + ")\\s+(?:[\\w-]+\\s+){1,3}(?:with|by|having|have|has|had|[a-z]+ed)\\s+"
              + "the\\s+(?:most|highest|largest|biggest|best|fewest|lowest|least|smallest|worst)"
              + "|\\b(?:top|first)\\s+("
              + NUMBER_WORDS
              + ")\\b");

  /** A ranking from the bottom: "lowest", "最少", "ワースト", "최저". */
  static final Pattern ASCENDING =
      Pattern.compile(
          "(?i)\\b(?:lowest|least|fewest|smallest|shortest|sparsest|cheapest|bottom|worst|minimum)\\b|最低|最少|最小|最短|最差|倒数|下位|ワースト"
              + "|少な|低い|小さ|최저|최소|가장\\s*적|가장\\s*낮|하위");

  /** A ranking without N, which keeps the first place: "highest", "最多", "一番", "가장". */
  static final Pattern SUPERLATIVE =
      Pattern.compile(
          "(?i)\\b(?:highest|most|largest|biggest|best|top|greatest|lowest|least|fewest|smallest|worst"
              + "|longest|shortest|tallest|densest|sparsest|oldest|newest|cheapest)\\b"
              + "|最高|最多|最大|最好|最低|最少|最小|最も|一番|いちばん|가장|제일");

  /** Groups above the average over the groups: "more than average", "高于平均". */
  static final Pattern ABOVE_AVERAGE =
      Pattern.compile(
          "(?i)(?:more|higher|greater|larger|bigger)\\s+(?:\\w+\\s+){0,3}than\\s+(?:the\\s+)?average"
              + "|above\\s+(?:the\\s+)?average|above-average"
              + "|高于平均|大于平均|超过平均|多于平均|平均(?:より|以上)(?:も)?(?:多|高|大)|평균보다\\s*(?:많|높|큰|크)|평균\\s*이상");

  /** Groups below the average over the groups: "less than average", "低于平均". */
  static final Pattern BELOW_AVERAGE =
      Pattern.compile(
          "(?i)(?:less|fewer|lower|smaller)\\s+(?:\\w+\\s+){0,3}than\\s+(?:the\\s+)?average"
              + "|below\\s+(?:the\\s+)?average|below-average"
              + "|低于平均|小于平均|少于平均|平均(?:より|以下)(?:も)?(?:少|低|小)|평균보다\\s*(?:적|낮|작)|평균\\s*이하");

  /** Groups above a number: "more than 5", "超过5", "5以上". */
  static final Pattern MORE_THAN_NUMBER =
      Pattern.compile(
          "(?i)(?:more|greater|higher|over|above)\\s+than\\s+(\\d+(?:\\.\\d+)?)|(?:超过|多于|大于|高于)\\s*(\\d+(?:\\.\\d+)?)"
              + "|(\\d+(?:\\.\\d+)?)\\s*"
              + COUNTER
              + "(?:以上|이상|を超える|を超え|초과|より多|より大き)");

  /** Groups below a number: "fewer than 5", "少于5", "5未満". */
  private static final Pattern LESS_THAN_NUMBER =
      Pattern.compile(
          "(?i)(?:less|fewer|lower|under|below)\\s+than\\s+(\\d+(?:\\.\\d+)?)|(?:少于|低于|小于|不到)\\s*(\\d+(?:\\.\\d+)?)"
              + "|(\\d+(?:\\.\\d+)?)\\s*"
              + COUNTER
              + "(?:以下|이하|未満|미만|より少な|より小さ|より短)");

  /** "top ... with the most": "top" marks the ranking the superlative after it says. */
  static final Pattern TOP_WITH_THE =
      Pattern.compile(
          "(?i)\\btop\\b(?:\\s+\\d+)?\\s+(?:[\\w-]+\\s+){1,3}(?:with|by|having|have|has|had|[a-z]+ed)\\s+the\\s+");

  /** Every row asked for: "all", "each", "所有", "すべて", "모든". */
  static final Pattern EVERY = Pattern.compile("(?i)\\b(?:all|each|every)\\b|每个|所有|各|すべて|모든");

  /** A negation, which one grouped query cannot say: "not", "没有", "ない", "없는". */
  static final Pattern NEGATION =
      Pattern.compile(
          "(?i)\\b(?:not|no|never|without|except|excluding|none)\\b|\\b\\w+n't\\b|没有|不是|除了|以外|(?<!少)ない|없는|아닌|제외");

  /** A comparison ("longer than"): refused unless it is with the average or a number. */
  static final Pattern THAN =
      Pattern.compile(
          "(?i)\\b(?:more|less|fewer|higher|lower|greater|smaller|larger|bigger|longer|shorter)\\s+(?:\\w+\\s+){0,3}?than\\b");

  /** Words that rank or compare groups: what a count without "how many" hangs on. */
  static final Pattern RANK_OR_COMPARE =
      Pattern.compile(
          "(?i)\\b(?:most|fewest|least|more|fewer|less|highest|lowest|top|bottom)\\b|最多|最少|多于|少于|超过"
              + "|高于|低于|多い|少ない|많은|적은|占比|比例|割合|비율|share|percentage");

  /** An average: "average", "mean", "平均", "평균". */
  private static final Pattern AVERAGE = Pattern.compile("(?i)\\b(?:average|avg|mean)\\b|平均|평균");

  /** A sum: "total", "sum", "总", "合計", "총". */
  private static final Pattern TOTAL = Pattern.compile("(?i)\\b(?:total|sum)\\b|总|合计|合計|총");

  /** A maximum: "max", "最大", "최대". */
  private static final Pattern MAXIMUM = Pattern.compile("(?i)\\b(?:maximum|max)\\b|最大值|最大|최대");

  /** A minimum: "min", "最小", "최소". */
  private static final Pattern MINIMUM = Pattern.compile("(?i)\\b(?:minimum|min)\\b|最小值|最小|최소");

  /** A count: "how many", "number of", "几个", "何人", "몇". */
  static final Pattern COUNT =
      Pattern.compile(
          "(?i)\\bhow\\s+many\\b|\\bnumber\\s+of\\b|\\bcount\\b|多少个|多少名|多少位|多少家|几个|几家|数量|有多少|何人|何件|何個|いくつ|몇|수는|수를");

  /** Distinct values, with a count: "different", "不同的", "異なる", "고유". */
  private static final Pattern DISTINCT =
      Pattern.compile("(?i)\\b(?:different|distinct|unique)\\b|不同的?|異なる|서로\\s*다른|고유");

  /** A share of the total: "percentage", "占比", "割合", "비율". */
  static final Pattern SHARE =
      Pattern.compile(
          "(?i)\\b(?:share|percentage|proportion|percent)\\b|占比|比例|份额|割合|シェア|構成比|비율|점유율|비중");

  /** A grouping: "by", "per", "each", "每", "按", "ごと", "별". */
  static final Pattern GROUPING =
      Pattern.compile(
          "(?i)\\b(?:by|per|each|every)\\s+|\\bfor\\s+each\\b|每个|每一|每|各个|各|按|分别|ごと|別|별|마다|각");

  /** A listing: "which", "list", "哪些", "どの", "어떤". */
  static final Pattern LISTING =
      Pattern.compile(
          "(?i)\\b(?:which|what|list|show|name)\\b|哪些|哪个|哪家|哪|是什么|有什么|列出|どの|どれ|何|一覧|어떤|어느|무엇|목록");

  /** A period to group by: "per month", "yearly", "每月", "月別", "월별". */
  private static final Pattern PER_PERIOD =
      Pattern.compile(
          "(?i)\\b(?:per|by|each|every)\\s+(?:year|quarter|month|week|day)\\b|\\b(?:yearly|annual|annually"
              + "|quarterly|monthly|weekly|daily)\\b|每年|每个?月|每季度?|每周|每天|每日|按年|按季度?|按月|按周|按天|按日"
              + "|各年|年度?[別别]|年ごと|四半期[別ごと]|月[別ごと]|週[別ごと]|日[別ごと]|연도별|연별|매년|분기별|월별|매월|주별|일별|매일");

  /** A list cannot be ranked without a measure: "the 5 longest tracks" must not list 200. */
  static final Pattern RANKING =
      Pattern.compile(
          "(?i)\\b(?:\\w{2,}est|most|least|fewest|top|bottom)\\b|最[^\\s的]|上位|下位|상위|하위|가장\\s*\\S+");

  /** An amount asked for ("how much", "多少"): a metric alike in meaning may answer it. */
  static final Pattern HOW_MUCH =
      Pattern.compile("(?i)\\bhow\\s+much\\b|\\b(?:total|amount)\\b|多少|いくら|얼마");

  /** An English capitalised word: a name the domain must know. */
  static final Pattern CAPITALISED = Pattern.compile("\\b([A-Z][a-zA-Z]{2,})\\b");

  /** The word after "of", "in", "for"...: where a question names a place, a person, a thing. */
  static final Pattern AFTER_PREPOSITION =
      Pattern.compile(
          "\\b(?:of|in|for|from|at|called|named|near|within)\\s+(?:the\\s+|a\\s+|an\\s+)?([a-z][a-z'-]{2,})\\b");

  /** Words that follow a preposition without naming anything. */
  static final Set<String> FUNCTION_WORDS =
      Set.of(
          """
          the us each every all any this that these those our their its his her my your them which
          what whose total average last past next previous recent current same other terms order
          descending ascending number count sum share percent percentage most least more less usa
          america united world country nation whole general stock top bottom use one two three
          four five six seven eight nine ten addition particular question between and both there
          here how many much month months year years week weeks day days quarter quarters today
          yesterday time period date dates
          """
              .strip()
              .split("\\s+"));

  /** Capitalised words that name nothing: question words, "Top", "The". */
  static final Set<String> COMMON_CAPITALISED =
      Set.of("What", "Which", "Who", "How", "List", "Show", "Give", "Top", "The", "And", "Of");

  /** Every cue: what a question's words may be accounted for by ({@link WordAccount}). */
  static List<Pattern> all() {
    return List.of(
        TOP_N,
        ASCENDING,
        SUPERLATIVE,
        ABOVE_AVERAGE,
        BELOW_AVERAGE,
        MORE_THAN_NUMBER,
        LESS_THAN_NUMBER,
        TOP_WITH_THE,
        EVERY,
        THAN,
        RANK_OR_COMPARE,
        AVERAGE,
        TOTAL,
        MAXIMUM,
        MINIMUM,
        COUNT,
        DISTINCT,
        SHARE,
        GROUPING,
        LISTING,
        PER_PERIOD,
        HOW_MUCH);
  }

  /** year, quarter, month, week or day when the question asks per one; else null. */
  static String period(String q) {
    Matcher m = PER_PERIOD.matcher(q);
    if (!m.find()) {
      return null;
    }
    String said = m.group().toLowerCase(Locale.ROOT);
    if (said.matches(".*(year|annual|年|년).*")) {
      return "year";
    }
    if (said.matches(".*(quarter|季|分期|분기).*")) {
      return "quarter";
    }
    if (said.matches(".*(month|月|월).*")) {
      return "month";
    }
    if (said.matches(".*(week|周|週|주).*")) {
      return "week";
    }
    return "day";
  }

  /** The aggregation the question names (a count, an average...), else null. */
  static Aggregation aggregation(String q) {
    if (DISTINCT.matcher(q).find() && COUNT.matcher(q).find()) {
      return Aggregation.COUNT_DISTINCT;
    }
    if (COUNT.matcher(q).find()) {
      return Aggregation.COUNT;
    }
    if (AVERAGE.matcher(q).find()
        && !ABOVE_AVERAGE.matcher(q).find()
        && !BELOW_AVERAGE.matcher(q).find()) {
      return Aggregation.AVG;
    }
    if (MAXIMUM.matcher(q).find()) {
      return Aggregation.MAX;
    }
    if (MINIMUM.matcher(q).find()) {
      return Aggregation.MIN;
    }
    return TOTAL.matcher(q).find() ? Aggregation.SUM : null;
  }

  /** The N of a top-N ("top 5", "前十", "上位3"), else null. */
  static Integer topN(String q) {
    Matcher m = TOP_N.matcher(q);
    if (!m.find()) {
      return null;
    }
    for (int g = 1; g <= m.groupCount(); g++) {
      if (m.group(g) != null) {
        int n = TimeWindows.number(m.group(g));
        return n > 0 ? n : null;
      }
    }
    return null;
  }

  /** The number groups are compared with ("more than 5"), else null. */
  static Double threshold(String q) {
    for (Pattern p : List.of(MORE_THAN_NUMBER, LESS_THAN_NUMBER)) {
      Matcher m = p.matcher(q);
      if (m.find()) {
        for (int g = 1; g <= m.groupCount(); g++) {
          if (m.group(g) != null) {
            return Double.parseDouble(m.group(g));
          }
        }
      }
    }
    return null;
  }
}
