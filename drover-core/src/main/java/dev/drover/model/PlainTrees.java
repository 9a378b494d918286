package dev.drover.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.drover.Json;
import java.util.List;
import java.util.Map;

/**
 * Turns plain Java values into the JSON trees {@code ObjectMapper.valueToTree} makes of them, but
 * builds the common ones (strings, ints, longs, booleans, null, and the JDK's lists and maps of
 * them) directly: valueToTree writes each value to a token buffer through a serializer provider it
 * creates per call, then parses the buffer back, which cost a fifth of creating one task. Any other
 * value, and any list or map not of the JDK (whose class might carry Jackson annotations), still
 * goes through valueToTree, so every tree is the one Jackson would make.
 */
final class PlainTrees {
  private PlainTrees() {}

  static JsonNode of(Object value) {
    if (value == null) {
      return NullNode.getInstance();
    } else if (value instanceof String s) {
      return TextNode.valueOf(s);
    } else if (value instanceof Integer i) {
      return IntNode.valueOf(i);
    } else if (value instanceof Long l) {
      return LongNode.valueOf(l);
    } else if (value instanceof Boolean b) {
      return BooleanNode.valueOf(b);
    } else if (value instanceof List<?> list && ofTheJdk(list)) {
      ArrayNode out = Json.array();
      for (Object element : list) {
        out.add(of(element));
      }
      return out;
    } else if (value instanceof Map<?, ?> map && ofTheJdk(map) && keysAreStrings(map)) {
      ObjectNode out = Json.object();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.set((String) e.getKey(), of(e.getValue()));
      }
      return out;
    }
    return Json.MAPPER.valueToTree(value);
  }

  private static boolean ofTheJdk(Object collection) {
    return collection.getClass().getName().startsWith("java.util.");
  }

  private static boolean keysAreStrings(Map<?, ?> map) {
    for (Object key : map.keySet()) {
      if (!(key instanceof String)) {
        return false;
      }
    }
    return true;
  }
}
