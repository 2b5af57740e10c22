package dev.sonde.mcp;

/** A tools/call being answered: how to find it for cancellation, and whether it was cancelled. */
final class InFlightCall {
  /** The id of its current round: a multi-round call is one id per round. */
  volatile String callId;

  volatile boolean cancelled;

  InFlightCall(String callId) {
    this.callId = callId;
  }
}
