package dev.sonde.timeseries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.CallerException;
import dev.sonde.core.Unit;
import org.junit.jupiter.api.Test;

/** The reference system's period and unit rules, one by one. */
class ChartPlanTest {
  static final long H = 3_600_000L;
  static final long D = 24 * H;
  static final long FIRST = 1_700_000_000_000L;
  static final long LAST = FIRST + 30 * D;

  static ChartPlan plan(ChartKind kind, String unit, Long start, Long end, boolean rollups) {
    return ChartPlan.of(
        new ChartPlan.Request(
            kind, unit == null ? null : UnitPhrase.parse(unit), start, end, rollups, null),
        FIRST,
        LAST);
  }

  @Test
  void unitOnlyKeepsTheUnitAndCutsTheDrawablePeriodBackFromTheLastTime() {
    ChartPlan p = plan(ChartKind.METRICS, "sec", null, null, true);
    assertEquals(Unit.SEC, p.unit());
    assertEquals(LAST - H, p.start());
    assertEquals(LAST, p.end());
    assertTrue(
        p.notices().get(0).contains("period cut to the last 60 minutes"), p.notices().toString());
    ChartPlan five = plan(ChartKind.METRICS, "5min", null, null, true);
    assertEquals(LAST - 5 * 48 * H, five.start(), "the drawable span times the multiple");
  }

  @Test
  void periodAndUnitKeepThePeriodAndRaiseATooFineUnit() {
    ChartPlan p = plan(ChartKind.METRICS, "1min", LAST - 7 * D, LAST, true);
    assertEquals(Unit.HOUR, p.unit());
    assertEquals(1, p.multiple());
    assertEquals(LAST - 7 * D, p.start());
    assertTrue(
        p.notices().get(0).startsWith("unit raised from 1 min to 1 hour"), p.notices().toString());
    ChartPlan fits = plan(ChartKind.METRICS, "1min", LAST - 6 * H, LAST, true);
    assertEquals(Unit.MIN, fits.unit());
    assertTrue(fits.notices().isEmpty());
  }

  @Test
  void candlesticksRaiseTheUnitToo() {
    assertEquals(Unit.HOUR, plan(ChartKind.OHLC, "min", LAST - 7 * D, LAST, true).unit());
  }

  @Test
  void tagComparisonsCutThePeriodInsteadOfRaisingTheUnit() {
    ChartPlan p = plan(ChartKind.TAGS, "sec", LAST - 6 * H, LAST, true);
    assertEquals(Unit.SEC, p.unit());
    assertEquals(LAST - H, p.start());
    assertTrue(p.notices().get(0).startsWith("period cut"), p.notices().toString());
  }

  @Test
  void periodOnlyChoosesTheUnit() {
    assertEquals(Unit.SEC, plan(ChartKind.METRICS, null, LAST - 30 * 60_000L, LAST, true).unit());
    assertEquals(Unit.MIN, plan(ChartKind.METRICS, null, LAST - 6 * H, LAST, true).unit());
    assertEquals(Unit.HOUR, plan(ChartKind.METRICS, null, LAST - 7 * D, LAST, true).unit());
  }

  @Test
  void neitherDrawsTheWholeRangeAtAChosenUnit() {
    ChartPlan p = plan(ChartKind.METRICS, null, null, null, true);
    assertEquals(FIRST, p.start());
    assertEquals(LAST, p.end());
    assertEquals(Unit.HOUR, p.unit(), "30 days at hours");
    assertTrue(p.notices().get(0).contains("whole range"));
  }

  @Test
  void aPeriodAfterTheFeedStoppedIsMovedOntoTheData() {
    ChartPlan p = plan(ChartKind.METRICS, "min", LAST + 10 * D, LAST + 10 * D + 6 * H, true);
    assertEquals(LAST, p.end());
    assertEquals(LAST - 6 * H, p.start());
    assertTrue(p.notices().get(0).contains("holds no data"), p.notices().toString());
    ChartPlan overlapping = plan(ChartKind.METRICS, "hour", FIRST - 5 * D, FIRST + 2 * D, true);
    assertEquals(FIRST, overlapping.start());
    assertTrue(overlapping.notices().get(0).startsWith("period snapped"));
  }

  @Test
  void withoutRollupsMultiplesStopAtOneDaysWorth() {
    CallerException e =
        assertThrows(
            CallerException.class, () -> plan(ChartKind.METRICS, "1441min", null, null, false));
    assertTrue(e.getMessage().contains("at most 1440"), e.getMessage());
    assertEquals(1441, plan(ChartKind.METRICS, "1441min", null, null, true).multiple());
  }
}
