package dev.drover;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
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
      JsonNode node = readInput(text == null ? "" : text);
      if (node == null || node.isMissingNode()) {
        throw new ValidationException(field, "empty JSON");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new ValidationException(field, "malformed JSON: " + e.getOriginalMessage());
    }
  }

  /**
   * Reads JSON typed or written by a person (an option, a line of a file): exactly one value, no
   * repeated object key, no lone UTF-16 surrogate, which UTF-8 storage would turn into '?', and no
   * NUL character, which PostgreSQL cannot store in text or jsonb (so no database takes it).
   *
   * @return the value, or null (or a missing node) when {@code text} is blank
   * @throws JsonProcessingException saying what is wrong in its original message
   */
  public static JsonNode readInput(String text) throws JsonProcessingException {
    JsonNode node;
    try {
      node = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      if (e.getOriginalMessage().startsWith("Trailing token")) {
        throw new JsonParseException(
            null,
            "more content after the JSON value at column " + e.getLocation().getColumnNr(),
            e.getLocation());
      }
      throw e;
    }
    String problem = node == null ? null : unstorable(node);
    if (problem != null) {
      throw new JsonParseException(null, problem, JsonLocation.NA);
    }
    return node;
  }

  /** What makes the first unstorable string or key in {@code node} so, or null if none is. */
  private static String unstorable(JsonNode node) {
    if (node.isTextual()) {
      return unstorable(node.textValue());
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String found = unstorable(e.getKey());
      found = found != null ? found : unstorable(e.getValue());
      if (found != null) {
        return found;
      }
    }
    if (node.isArray()) {
      for (JsonNode child : node) {
        String found = unstorable(child);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /** Why {@code text} cannot be stored (a lone surrogate, a NUL), or null if it can. */
  public static String unstorable(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return String.format("a lone surrogate \\u%04x is not a character", (int) c);
      } else if (c == 0) {
        return "a NUL character (\\u0000) cannot be stored";
      }
    }
    return null;
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

  /**
   * Canonical text: keys sorted at every depth, no whitespace. Written straight to one generator of
   * {@link #MAPPER} rather than by {@code writeValueAsString} of a sorted copy, which built a copy
   * of the tree and a serializer provider per call; the text is the same, byte for byte (stored
   * argument hashes depend on it; TaskArgumentsTest pins a few).
   */
  public static String canonical(JsonNode node) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = MAPPER.createGenerator(out)) {
      writeSorted(g, node);
    } catch (IOException e) {
      throw new DroverException("cannot write JSON", e);
    }
    return out.toString();
  }

  private static void writeSorted(JsonGenerator g, JsonNode node) throws IOException {
    if (node.isObject()) {
      List<String> names = new ArrayList<>(node.size());
      node.fieldNames().forEachRemaining(names::add);
      names.sort(null);
      g.writeStartObject();
      for (String name : names) {
        g.writeFieldName(name);
        writeSorted(g, node.get(name));
      }
      g.writeEndObject();
    } else if (node.isArray()) {
      g.writeStartArray();
      for (JsonNode child : node) {
        writeSorted(g, child);
      }
      g.writeEndArray();
    } else if (node.isNull()) {
      g.writeNull(); // as MAPPER's provider writes null: it has no null serializer of its own
    } else if (node.isTextual() || node.isNumber() || node.isBoolean()) {
      // these write themselves to the generator and never consult a serializer provider
      node.serialize(g, null);
    } else {
      MAPPER.writeValue(g, node); // binary or POJO nodes: as writeValueAsString writes them
    }
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
