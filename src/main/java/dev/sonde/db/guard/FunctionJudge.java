package dev.sonde.db.guard;

/** Decides, by name, whether a read may call a function. */
@FunctionalInterface
public interface FunctionJudge {
  /** Why a call to {@code name} is refused, as a sentence for the caller; null when it may run. */
  String refusal(String name);
}
