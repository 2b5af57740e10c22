package dev.sonde.tools;

/** Headers of a tool-call event-bus message, and the addresses a call talks on. */
public final class CallHeaders {
  public static final String TOOL = "tool";
  public static final String SESSION = "session";
  public static final String REQUEST = "request";
  public static final String ACCOUNT = "account";
  public static final String PROGRESS_TOKEN = "progressToken";
  public static final String DEADLINE = "deadline";
  public static final String CALL = "call";

  /** The client's capabilities as JSON: the request's own in the modern era, else the session's. */
  public static final String CLIENT_CAPABILITIES = "clientCapabilities";

  /** A retry's answers to the tool's input requests, as JSON by key. */
  public static final String INPUT_RESPONSES = "inputResponses";

  /** What the tool kept from its last round, as JSON, verified by the server. */
  public static final String REQUEST_STATE = "requestState";

  /** The address prefix a family consumes: {@code sonde.tools.<family>}. */
  public static final String FAMILY_PREFIX = "sonde.tools.";

  /** Published to every family: {@code {"call": id, "reason": text}} stops that call. */
  public static final String CANCEL_ADDRESS = "sonde.calls.cancel";

  /**
   * Where a job-mode call sends log lines and requests for the client: {@code sonde.calls.<id>}.
   */
  public static final String CALLBACK_PREFIX = "sonde.calls.";

  /** Publish {@code {"uri": ...}} here when a resource changes, to notify its subscribers. */
  public static final String RESOURCE_UPDATED_ADDRESS = "sonde.resources.updated";

  /** Published when the set of resources changed (e.g. documents indexed or removed). */
  /** Publish here when a family's tools changed, so clients listening for it are told. */
  public static final String TOOLS_CHANGED_ADDRESS = "sonde.toolList.changed";

  public static final String RESOURCES_CHANGED_ADDRESS = "sonde.resources.listChanged";

  /** The protocol engine answers here with its status (sessions, transports, tools per family). */
  public static final String MCP_STATUS_ADDRESS = "sonde.mcp.status";

  /** The {@code tool} header value that asks a family whether it is alive. */
  public static final String PING = "__ping";

  private CallHeaders() {}
}
