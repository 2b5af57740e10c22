package dev.sonde.support;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.function.Supplier;

/** How much more heap a call needed at its peak than was in use (after a GC) before it. */
public final class HeapPeak {
  private HeapPeak() {}

  /** What a call answered, and how many bytes more heap it needed at its peak. */
  public record Measured<T>(T answer, long bytes) {}

  public static <T> Measured<T> measure(Supplier<T> call) {
    List<T> answer = new java.util.ArrayList<>(1);
    long bytes = during(() -> answer.add(call.get()));
    return new Measured<>(answer.get(0), bytes);
  }

  /** Bytes: the sum of each heap pool's peak during {@code call}, less the use before it. */
  public static long during(Runnable call) {
    List<MemoryPoolMXBean> heap =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .toList();
    System.gc();
    long before = heap.stream().mapToLong(p -> p.getUsage().getUsed()).sum();
    heap.forEach(MemoryPoolMXBean::resetPeakUsage);
    call.run();
    long peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    return peak - before;
  }
}
