package dev.sonde.docs;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 in hex: what decides whether a page is indexed again. */
final class Checksums {
  private Checksums() {}

  static String of(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String of(String text) {
    return of(text.getBytes(StandardCharsets.UTF_8));
  }
}
