package dev.sonde.chatbi;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Time windows said in English, Chinese, Japanese or Korean, as [start, end) in the user's local
 * time. Rolling windows ("最近一个月", "past 30 days", "直近3か月", "최근 한 달") start at local midnight that
 * long ago and run to now; named periods are whole calendar units: "last month", "上个月", "先月", "지난달"
 * the previous calendar month; "2024年", "Q3", "this year", "year to date".
 */
final class TimeWindows {
  /** A window and the words that said it. */
  record Window(LocalDateTime start, LocalDateTime end, String said) {}

  private record Rule(Pattern pattern, BiFunction<Matcher, LocalDateTime, Window> window) {}

  private static final String NUMBER = "(\\d+|[一二两三四五六七八九十]+|한|두|세|네|다섯|여섯|열)";
  private static final List<Rule> RULES = new ArrayList<>();

  static {
    // rolling: a count of units back to now
    rolling("(?:last|past|previous|recent)\\s+" + NUMBER + "\\s+(day|week|month|quarter|year)s?");
    rolling("(?:最近|近|过去|過去|直近)" + NUMBER + "\\s*(天|日|周|週間|週|个月|個月|か月|ヶ月|カ月|月|季度|年)");
    rolling("(?:최근|지난)\\s*" + NUMBER + "\\s*(일|주|개월|달|분기|년)");
    fixed(
        "(?:the\\s+)?(?:past|recent)\\s+month|(?:in|over|during)\\s+the\\s+last\\s+month",
        (m, now) -> back(now, 1, "month"));
    // calendar periods
    fixed(
        "last\\s+month|previous\\s+month|上个月|上月|先月|지난\\s*달|지난달|저번\\s*달",
        (m, now) -> month(now.toLocalDate().withDayOfMonth(1).minusMonths(1)));
    fixed(
        "this\\s+month|本月|这个月|今月|이번\\s*달", (m, now) -> month(now.toLocalDate().withDayOfMonth(1)));
    fixed("last\\s+year|previous\\s+year|去年|昨年|작년|지난\\s*해", (m, now) -> year(now.getYear() - 1));
    fixed(
        "year\\s+to\\s+date|ytd|年初至今|今年以来|年初来|연초\\s*이후|올해\\s*들어",
        (m, now) -> new Window(LocalDate.of(now.getYear(), 1, 1).atStartOfDay(), now, null));
    fixed("this\\s+year|今年|本年|올해|금년", (m, now) -> year(now.getYear()));
    fixed(
        "last\\s+week|上周|先週|지난\\s*주",
        (m, now) -> {
          LocalDate monday =
              now.toLocalDate().with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
          return new Window(monday.minusWeeks(1).atStartOfDay(), monday.atStartOfDay(), null);
        });
    fixed("yesterday|昨天|昨日|어제", (m, now) -> day(now.toLocalDate().minusDays(1)));
    fixed("today|今天|今日|오늘", (m, now) -> day(now.toLocalDate()));
    // a quarter, of a year said or this one
    fixed(
        "(?:(\\d{4})\\s*年?\\s*)?(?:q([1-4])|第?([一二三四1-4])季度|第?([1-4])四半期|([1-4])\\s*분기)(?:\\s*(?:of\\s+)?(\\d{4}))?",
        (m, now) -> {
          String q = first(m, 2, 3, 4, 5);
          int quarter = "一二三四".indexOf(q) >= 0 ? "一二三四".indexOf(q) + 1 : Integer.parseInt(q);
          String y = first(m, 1, 6);
          int year = y == null ? now.getYear() : Integer.parseInt(y);
          LocalDate start = LocalDate.of(year, 3 * quarter - 2, 1);
          return new Window(start.atStartOfDay(), start.plusMonths(3).atStartOfDay(), null);
        });
    fixed(
        "(?:in\\s+|during\\s+)?(\\d{4})\\s*(?:年|년)?(?:\\s*(\\d{1,2})\\s*(?:月|월))?",
        (m, now) -> {
          int year = Integer.parseInt(m.group(1));
          if (year < 1900 || year > 2200) {
            return null;
          }
          return m.group(2) == null
              ? year(year)
              : month(LocalDate.of(year, Integer.parseInt(m.group(2)), 1));
        });
  }

  private static void rolling(String regex) {
    fixed(regex, (m, now) -> back(now, number(m.group(1)), m.group(2)));
  }

  private static void fixed(String regex, BiFunction<Matcher, LocalDateTime, Window> window) {
    RULES.add(new Rule(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), window));
  }

  private TimeWindows() {}

  /** The first window {@code question} says, or null; {@code now} is in the user's zone. */
  static Window find(String question, ZonedDateTime now) {
    LocalDateTime local = now.toLocalDateTime().truncatedTo(ChronoUnit.SECONDS);
    for (Rule rule : RULES) {
      Matcher m = rule.pattern().matcher(question);
      while (m.find()) {
        Window w = rule.window().apply(m, local);
        if (w != null) {
          return new Window(w.start(), w.end(), m.group().trim());
        }
      }
    }
    return null;
  }

  private static Window back(LocalDateTime now, int count, String unit) {
    String u = unit.toLowerCase(Locale.ROOT);
    LocalDate today = now.toLocalDate();
    LocalDate start;
    if (u.matches("day|天|日|일")) {
      start = today.minusDays(count);
    } else if (u.matches("week|周|週間|週|주")) {
      start = today.minusWeeks(count);
    } else if (u.matches("quarter|季度|분기")) {
      start = today.minusMonths(3L * count);
    } else if (u.matches("year|年|년")) {
      start = today.minusYears(count);
    } else {
      start = today.minusMonths(count);
    }
    return new Window(start.atStartOfDay(), now, null);
  }

  private static Window month(LocalDate first) {
    return new Window(first.atStartOfDay(), first.plusMonths(1).atStartOfDay(), null);
  }

  private static Window year(int year) {
    LocalDate first = LocalDate.of(year, 1, 1);
    return new Window(first.atStartOfDay(), first.plusYears(1).atStartOfDay(), null);
  }

  private static Window day(LocalDate d) {
    return new Window(d.atStartOfDay(), d.plusDays(1).atStartOfDay(), null);
  }

  private static String first(Matcher m, int... groups) {
    for (int g : groups) {
      if (m.group(g) != null) {
        return m.group(g);
      }
    }
    return null;
  }

  /** 3, 三, 十二, 세: small counts in any of the four languages. */
  static int number(String text) {
    if (text.matches("\\d+")) {
      return Integer.parseInt(text);
    }
    List<String> english =
        List.of("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten");
    if (english.contains(text.toLowerCase(java.util.Locale.ROOT))) {
      return english.indexOf(text.toLowerCase(java.util.Locale.ROOT)) + 1;
    }
    if (text.equalsIgnoreCase("twenty")) {
      return 20;
    }
    List<String> korean = List.of("한", "두", "세", "네", "다섯", "여섯");
    if (korean.contains(text)) {
      return korean.indexOf(text) + 1;
    }
    if (text.equals("열")) {
      return 10;
    }
    String digits = "零一二三四五六七八九";
    int value = 0;
    int current = 0;
    for (char c : text.toCharArray()) {
      if (c == '十') {
        value += (current == 0 ? 1 : current) * 10;
        current = 0;
      } else if (c == '两') {
        current = 2;
      } else {
        current = digits.indexOf(c);
      }
    }
    return value + current;
  }
}
