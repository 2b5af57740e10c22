package dev.sonde.workspace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One lock per file path, so that the writes of one file run one after another. A lock lives only
 * while a thread holds or waits for it. Callers are worker threads: waiting here never holds up an
 * event loop.
 */
final class PathLocks {
  private final ConcurrentMap<Path, CountedLock> locks = new ConcurrentHashMap<>();

  /** Work on a file that may throw what file work throws. */
  @FunctionalInterface
  interface FileWork<T> {
    T run() throws IOException;
  }

  /** A lock and the number of threads holding or waiting for it, changed only inside compute. */
  private static final class CountedLock extends ReentrantLock {
    private int users;
  }

  <T> T holding(Path file, FileWork<T> work) throws IOException {
    CountedLock lock =
        locks.compute(
            file,
            (path, existing) -> {
              CountedLock used = existing == null ? new CountedLock() : existing;
              used.users++;
              return used;
            });
    lock.lock();
    try {
      return work.run();
    } finally {
      lock.unlock();
      locks.computeIfPresent(file, (path, used) -> --used.users == 0 ? null : used);
    }
  }
}
