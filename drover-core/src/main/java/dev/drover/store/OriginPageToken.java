package dev.drover.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Json;
import dev.drover.ValidationException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where the next page of listed origins starts: strictly after (lister, url, visit type), the whole
 * key, so that rows sharing a lister and url are never skipped at a page boundary. Written as
 * base64url of a JSON array, since urls may hold any character.
 */
record OriginPageToken(String listerId, String url, String visitType) {

  static OriginPageToken parse(String token) {
    if (token == null || token.isBlank()) {
      return null;
    }
    try {
      JsonNode node = Json.MAPPER.readTree(Base64.getUrlDecoder().decode(token));
      if (node != null
          && node.isArray()
          && node.size() == 3
          && node.get(0).isTextual()
          && node.get(1).isTextual()
          && node.get(2).isTextual()) {
        return new OriginPageToken(
            node.get(0).asText(), node.get(1).asText(), node.get(2).asText());
      }
    } catch (IllegalArgumentException | java.io.IOException e) {
      // reported below
    }
    throw new ValidationException(
        "page_token", "'" + token + "' is not a page token from a previous page");
  }

  @Override
  public String toString() {
    String json = Json.canonical(Json.array().add(listerId).add(url).add(visitType));
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }
}
