package dev.drover.app.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.ValidationException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed reads of one JSON object of a request body, each naming the key (with its place in the
 * body, e.g. {@code tasks[2].retries}) when the value has the wrong type. Absent and null read as
 * null: the default applies.
 */
final class Fields {
  private final ObjectNode node;
  private final String prefix;

  Fields(ObjectNode node, String prefix) {
    this.node = node;
    this.prefix = prefix;
  }

  /** Reads {@code value} as an object, or names {@code field} as the problem. */
  static Fields of(JsonNode value, String field, String example) {
    if (value == null || !value.isObject()) {
      throw new ValidationException(
          field.isEmpty() ? "body" : field,
          "expected a JSON object such as " + example + ", got " + kind(value));
    }
    return new Fields((ObjectNode) value, field.isEmpty() ? "" : field + ".");
  }

  /** The full name of {@code key} in the body. */
  String name(String key) {
    return prefix + key;
  }

  /** Refuses any key not in {@code known}: a typo must not be ignored silently. */
  Fields onlyKeys(List<String> known) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      if (!known.contains(key)) {
        throw new ValidationException(
            name(key), "unknown key (expected one of " + String.join(", ", known) + ")");
      }
    }
    return this;
  }

  JsonNode raw(String key) {
    JsonNode v = node.get(key);
    return v == null || v.isNull() ? null : v;
  }

  String text(String key) {
    JsonNode v = raw(key);
    if (v == null) {
      return null;
    }
    if (!v.isTextual()) {
      throw new ValidationException(name(key), "expected a string, got " + kind(v));
    }
    return v.asText();
  }

  String requiredText(String key, String what) {
    String v = text(key);
    ValidationException.check(v != null && !v.isBlank(), name(key), what + " is required");
    return v;
  }

  Long whole(String key, long min, long max) {
    JsonNode v = raw(key);
    if (v == null) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new ValidationException(name(key), "expected a whole number, got " + kind(v));
    }
    long n = v.asLong();
    ValidationException.check(
        n >= min && n <= max, name(key), "must be from " + min + " to " + max + ", got " + n);
    return n;
  }

  Integer integer(String key, int min) {
    Long n = whole(key, min, Integer.MAX_VALUE);
    return n == null ? null : n.intValue();
  }

  Double number(String key) {
    JsonNode v = raw(key);
    if (v == null) {
      return null;
    }
    if (!v.isNumber()) {
      throw new ValidationException(name(key), "expected a number, got " + kind(v));
    }
    return v.asDouble();
  }

  List<String> texts(String key) {
    JsonNode v = raw(key);
    if (v == null) {
      return null;
    }
    if (!v.isArray()) {
      throw new ValidationException(name(key), "expected an array of strings, got " + kind(v));
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      if (!v.get(i).isTextual()) {
        throw new ValidationException(
            name(key) + "[" + i + "]", "expected a string, got " + kind(v.get(i)));
      }
      out.add(v.get(i).asText());
    }
    return out;
  }

  Map<String, String> textMap(String key) {
    JsonNode v = raw(key);
    if (v == null) {
      return null;
    }
    if (!v.isObject()) {
      throw new ValidationException(name(key), "expected an object of strings, got " + kind(v));
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : v.properties()) {
      if (!e.getValue().isTextual()) {
        throw new ValidationException(
            name(key) + "." + e.getKey(), "expected a string, got " + kind(e.getValue()));
      }
      out.put(e.getKey(), e.getValue().asText());
    }
    return out;
  }

  static String kind(JsonNode v) {
    if (v == null || v.isMissingNode()) {
      return "nothing";
    }
    return switch (v.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
