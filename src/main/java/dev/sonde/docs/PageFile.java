package dev.sonde.docs;

import java.io.IOException;

/** A page a source offers, known by key and checksum before it is read and parsed. */
record PageFile(String key, String checksum, Loader loader) {
  interface Loader {
    DocPage load() throws IOException;
  }
}
