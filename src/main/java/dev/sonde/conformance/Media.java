package dev.sonde.conformance;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

/** Tiny media payloads for the fixtures: a 1×1 red PNG and a short silent WAV. */
final class Media {
  static final String RED_PIXEL_PNG =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
  static final String SILENT_WAV = Base64.getEncoder().encodeToString(wav(8000, 800));

  private Media() {}

  private static byte[] wav(int sampleRate, int samples) {
    ByteBuffer header = ByteBuffer.allocate(44).order(ByteOrder.LITTLE_ENDIAN);
    header.put("RIFF".getBytes()).putInt(36 + samples).put("WAVE".getBytes());
    header.put("fmt ".getBytes()).putInt(16).putShort((short) 1).putShort((short) 1);
    header.putInt(sampleRate).putInt(sampleRate).putShort((short) 1).putShort((short) 8);
    header.put("data".getBytes()).putInt(samples);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(header.array());
    for (int i = 0; i < samples; i++) {
      out.write(128);
    }
    return out.toByteArray();
  }
}
