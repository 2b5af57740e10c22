package dev.sonde.timeseries;

import dev.sonde.core.Unit;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bucket unit read from a spec's rollup or a question, in English, Korean, Japanese or Chinese:
 * "5min", "10s", "1-minute average", "1분 평균", "5분봉", "시간별", "5分足", "1時間ごと", "每小时", "按天". A number
 * with a bucket word counts as a unit; so do the words that mean "per hour", "daily".
 */
public record UnitPhrase(Unit unit, int multiple) {
  private static final String SEC = "s|secs?|seconds?|초|秒|秒钟|秒鐘";
  private static final String MIN = "m|mins?|minutes?|분|分钟|分鐘|分";
  private static final String HOUR = "h|hrs?|hours?|시간|時間|小时|小時|時";
  private static final String DAY = "d|days?|일|日|天";
  private static final String WEEK = "w|wks?|weeks?|주|週間|週|周";
  private static final String MONTH = "mo|mons?|months?|개월|달|ヶ月|か月|カ月|个月|個月|月";

  private static final Pattern NUMBERED =
      Pattern.compile(
          "(\\d{1,6})\\s*-?\\s*("
              + String.join("|", MONTH, SEC, MIN, HOUR, DAY, WEEK)
              + ")(?![a-z])",
          Pattern.CASE_INSENSITIVE);

  /** Words that name a unit without a number: hourly, 시간별, 每小时, 日足, 按天. */
  private static final List<Object[]> WORDS =
      List.of(
          new Object[] {Unit.SEC, "(?i)\\b(secondly|per second|every second)\\b|초별|초당|每秒|秒ごと"},
          new Object[] {
            Unit.MIN, "(?i)\\b(minutely|per minute|every minute)\\b|분별|분봉|每分钟|每分鐘|分ごと|分足"
          },
          new Object[] {
            Unit.HOUR,
            "(?i)\\b(hourly|per hour|every hour)\\b|시간별|시간봉|시간마다|每小时|每小時|按小时|按小時|毎時|時間ごと|時間足"
          },
          new Object[] {
            Unit.DAY, "(?i)\\b(daily|per day|every day)\\b|일별|일봉|매일|每天|每日|按天|按日|日ごと|毎日|日足"
          },
          new Object[] {
            Unit.WEEK, "(?i)\\b(weekly|per week|every week)\\b|주별|주봉|매주|每周|每週|按周|週ごと|毎週|週足"
          },
          new Object[] {
            Unit.MONTH, "(?i)\\b(monthly|per month|every month)\\b|월별|월봉|매월|每月|按月|月ごと|毎月|月足"
          });

  /** The unit a text names, or null when it names none. */
  public static UnitPhrase parse(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    String t = text.trim();
    Unit bare = Unit.ofSpec(t);
    if (bare != null) {
      return new UnitPhrase(bare, 1);
    }
    Matcher m = NUMBERED.matcher(t);
    if (m.find()) {
      int n = Integer.parseInt(m.group(1));
      String word = m.group(2);
      Unit unit = unitOfWord(word);
      if (unit != null && n > 0) {
        return new UnitPhrase(unit, n);
      }
    }
    for (Object[] w : WORDS) {
      if (Pattern.compile((String) w[1]).matcher(t).find()) {
        return new UnitPhrase((Unit) w[0], 1);
      }
    }
    return null;
  }

  private static Unit unitOfWord(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    if (word.equals("M")) {
      return Unit.MONTH;
    }
    Object[][] order = {
      {Unit.MONTH, MONTH},
      {Unit.SEC, SEC},
      {Unit.MIN, MIN},
      {Unit.HOUR, HOUR},
      {Unit.DAY, DAY},
      {Unit.WEEK, WEEK}
    };
    for (Object[] o : order) {
      if (w.matches("(?:" + o[1] + ")")) {
        return (Unit) o[0];
      }
    }
    return null;
  }

  /** "5 min", "1 hour": how notices and titles name it. */
  public String label() {
    return multiple + " " + unit.specName();
  }
}
