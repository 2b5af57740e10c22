package dev.sonde.auth;

/** Who a request acts as: the account (its workspace, its jobs) and what it may call. */
public record Principal(String account, Grant grant) {}
