package dev.drover.app.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.DroverException;
import dev.drover.Json;
import io.javalin.http.Context;

/** Writes JSON responses: compact, UTF-8, the same values as the CLI's {@code --json}. */
final class Reply {
  static final String JSON = "application/json; charset=utf-8";

  private Reply() {}

  static void json(Context ctx, int status, JsonNode body) {
    ctx.status(status).contentType(JSON).result(text(body));
  }

  static void json(Context ctx, JsonNode body) {
    json(ctx, 200, body);
  }

  static String text(JsonNode body) {
    try {
      return Json.MAPPER.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new DroverException("cannot write JSON", e);
    }
  }
}
