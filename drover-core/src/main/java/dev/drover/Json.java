package dev.drover;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON in one place. Stored JSON is canonical (object keys sorted at every depth) so that equal
 * arguments have equal text on both databases, which task de-duplication relies on.
 */
public final class Json {
  // Input is refused rather than silently changed: a second value after the first, or a
  // repeated key, would otherwise be dropped without a word.
  public static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private Json() {}

  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  public static ArrayNode array() {
    return JsonNodeFactory.instance.arrayNode();
  }

  /** Parses {@code text} as a JSON object, naming {@code field} when it is not one. */
  public static ObjectNode parseObject(String field, String text) {
    JsonNode node = parse(field, text);
    if (!node.isObject()) {
      throw new ValidationException(field, "expected a JSON object, got " + kind(node));
    }
    return (ObjectNode) node;
  }

  /** Parses {@code text} as a JSON array, naming {@code field} when it is not one. */
  public static ArrayNode parseArray(String field, String text) {
    JsonNode node = parse(field, text);
    if (!node.isArray()) {
      throw new ValidationException(field, "expected a JSON array, got " + kind(node));
    }
    return (ArrayNode) node;
  }

  private static JsonNode parse(String field, String text) {
    try {
      JsonNode node = MAPPER.readTree(text == null ? "" : text);
      if (node == null || node.isMissingNode()) {
        throw new ValidationException(field, "empty JSON");
      }
      checkSurrogates(field, node);
      return node;
    } catch (JsonProcessingException e) {
      String problem =
          e.getOriginalMessage().startsWith("Trailing token")
              ? "more content after the JSON value at column " + e.getLocation().getColumnNr()
              : e.getOriginalMessage();
      throw new ValidationException(field, "malformed JSON: " + problem);
    }
  }

  /** A lone UTF-16 surrogate cannot be stored as UTF-8: it would become '?'. */
  private static void checkSurrogates(String field, JsonNode node) {
    if (node.isTextual()) {
      checkText(field, node.textValue());
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      checkText(field, e.getKey());
      checkSurrogates(field, e.getValue());
    }
    if (node.isArray()) {
      node.elements().forEachRemaining(child -> checkSurrogates(field, child));
    }
  }

  private static void checkText(String field, String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new ValidationException(
            field,
            String.format("malformed JSON: a lone surrogate \\u%04x is not a character", (int) c));
      }
    }
  }

  private static String kind(JsonNode node) {
    return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Reads JSON that Drover itself stored; a failure here is a bug or a corrupted row. */
  public static JsonNode read(String text) {
    try {
      return text == null ? null : MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new DroverException("stored JSON is unreadable: " + text, e);
    }
  }

  public static ObjectNode readObject(String text) {
    JsonNode node = read(text);
    return node instanceof ObjectNode o ? o : object();
  }

  /** Canonical text: keys sorted at every depth, no whitespace. */
  public static String canonical(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(sorted(node));
    } catch (JsonProcessingException e) {
      throw new DroverException("cannot write JSON", e);
    }
  }

  private static JsonNode sorted(JsonNode node) {
    if (node.isObject()) {
      ObjectNode out = object();
      List<String> names = new ArrayList<>();
      node.fieldNames().forEachRemaining(names::add);
      names.sort(null);
      for (String name : names) {
        out.set(name, sorted(node.get(name)));
      }
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = array();
      for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
        out.add(sorted(it.next()));
      }
      return out;
    }
    return node;
  }

  /**
   * A shallow merge: {@code base} with every key of {@code update} put over it; neither is changed.
   */
  public static ObjectNode merge(ObjectNode base, ObjectNode update) {
    ObjectNode out = base == null ? object() : base.deepCopy();
    if (update != null) {
      out.setAll(update.deepCopy());
    }
    return out;
  }
}
