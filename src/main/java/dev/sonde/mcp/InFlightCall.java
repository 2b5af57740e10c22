package dev.sonde.mcp;

/** A tools/call being answered: how to find it for cancellation, and whether it was cancelled. */
final class InFlightCall {
  final String callId;
  volatile boolean cancelled;

  InFlightCall(String callId) {
    this.callId = callId;
  }
}
