package dev.sonde.core;

/**
 * The languages the index analyses separately. A text's language is the script that dominates its
 * letters: kana means Japanese, hangul Korean, other Han characters Chinese, else English.
 */
public enum Language {
  EN("en"),
  ZH("zh"),
  JA("ja"),
  KO("ko");

  private final String code;

  Language(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  /** The language of a code ({@code en}, {@code zh}, ...); English for one it does not know. */
  public static Language of(String code) {
    for (Language language : values()) {
      if (language.code.equals(code)) {
        return language;
      }
    }
    return EN;
  }

  /** The language of a text; CJK wins once a tenth of its letters are CJK (code stays Latin). */
  public static Language detect(CharSequence text) {
    int latin = 0;
    int han = 0;
    int kana = 0;
    int hangul = 0;
    for (int i = 0; i < text.length(); ) {
      int c = Character.codePointAt(text, i);
      i += Character.charCount(c);
      if (!Character.isLetter(c)) {
        continue;
      }
      switch (Character.UnicodeScript.of(c)) {
        case HAN -> han++;
        case HIRAGANA, KATAKANA -> kana++;
        case HANGUL -> hangul++;
        default -> latin++;
      }
    }
    int cjk = han + kana + hangul;
    if (cjk == 0 || cjk * 10 < latin + cjk) {
      return EN;
    }
    if (hangul >= han && hangul >= kana) {
      return KO;
    }
    return kana * 10 >= han ? JA : ZH;
  }

  public static boolean isCjk(int codePoint) {
    return switch (Character.UnicodeScript.of(codePoint)) {
      case HAN, HIRAGANA, KATAKANA, HANGUL -> true;
      default -> false;
    };
  }
}
