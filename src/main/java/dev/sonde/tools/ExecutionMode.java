package dev.sonde.tools;

/** Where a tool's handler runs. */
public enum ExecutionMode {
  /** On the family's event loop: the handler must not block. */
  EVENT_LOOP,
  /** On the family's named worker pool (JDBC, CPU work), unordered. */
  WORKER,
  /** As a job on the jobs pool: steps become progress, the call can log, ask the client, cancel. */
  JOB
}
