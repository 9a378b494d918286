package dev.drover.app.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Json;
import dev.drover.ValidationException;
import io.javalin.http.Context;

/**
 * Reads a request body as exactly one JSON value, refusing what a lenient parser would silently
 * change: a repeated key, trailing values, a lone surrogate ({@link Json#readInput}). Bodies larger
 * than {@link ApiServer#MAX_BODY_BYTES} are refused by the server before they are read.
 */
final class JsonBody {
  private JsonBody() {}

  static JsonNode read(Context ctx) {
    String type = ctx.contentType();
    if (type != null && !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
      throw new ApiError(415, "Content-Type", "expected application/json, got " + type);
    }
    String text = ctx.body();
    JsonNode node;
    try {
      node = Json.readInput(text);
    } catch (JsonProcessingException e) {
      throw new ValidationException("body", "malformed JSON: " + e.getOriginalMessage());
    }
    if (node == null || node.isMissingNode()) {
      throw new ValidationException("body", "a JSON body is required");
    }
    return node;
  }
}
