package dev.drover.app.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;

/**
 * A request the API refuses: an HTTP status and the body {@code {"error": {"field": ..., "message":
 * ...}}}, where {@code field} names the part of the request at fault (a JSON key such as {@code
 * tasks[2].priority}, a query parameter, a path parameter, {@code body} or a header), or is null
 * when no part is.
 */
final class ApiError extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String field;

  ApiError(int status, String field, String message) {
    super(message, null, false, false);
    this.status = status;
    this.field = field;
  }

  static ApiError notFound(String field, String message) {
    return new ApiError(404, field, message);
  }

  int status() {
    return status;
  }

  String field() {
    return field;
  }

  /** The JSON body of an error response. */
  static ObjectNode body(String field, String message) {
    ObjectNode o = Json.object();
    ObjectNode error = o.putObject("error");
    error.put("field", field);
    error.put("message", message);
    return o;
  }
}
