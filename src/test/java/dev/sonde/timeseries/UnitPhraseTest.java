package dev.sonde.timeseries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UnitPhraseTest {
  @ParameterizedTest(name = "{0} -> {1} x{2}")
  @CsvSource({
    "min, min, 1",
    "5min, min, 5",
    "10s, sec, 10",
    "1-minute average, min, 1",
    "15 minutes, min, 15",
    "2h, hour, 2",
    "hourly, hour, 1",
    "daily, day, 1",
    "1분 평균, min, 1",
    "5분 단위, min, 5",
    "10초 간격, sec, 10",
    "1시간마다, hour, 1",
    "5분봉, min, 5",
    "시간별, hour, 1",
    "일별, day, 1",
    "5分足, min, 5",
    "1時間ごと, hour, 1",
    "日足, day, 1",
    "每小时, hour, 1",
    "按天, day, 1",
    "5分钟平均, min, 5",
    "3M, month, 1",
    "1 week, week, 1"
  })
  void aNumberWithABucketWordOrAUnitWordIsAUnit(String text, String unit, int multiple) {
    UnitPhrase parsed = UnitPhrase.parse(text);
    assertEquals(unit, parsed.unit().specName(), text);
    assertEquals(text.equals("3M") ? 3 : multiple, parsed.multiple(), text);
  }

  @ParameterizedTest
  @CsvSource({"temperature, ", "last value, ", "2024年, "})
  void textWithoutAUnitIsNone(String text, String ignored) {
    assertNull(UnitPhrase.parse(text), text);
  }
}
