package dev.drover.config;

import dev.drover.ValidationException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads YAML nodes while keeping their line numbers, so every error names the line and the setting
 * ({@code task_types.load-git.min_interval}) it comes from.
 */
final class YamlNodes {
  private final Path file;

  YamlNodes(Path file) {
    this.file = file;
  }

  ConfigException error(Node node, String setting, String problem) {
    return new ConfigException(file, node.getStartMark().getLine() + 1, setting, problem);
  }

  /** The entries of a mapping, with unknown keys refused. */
  Map<String, Node> mapping(Node node, String setting, List<String> allowed) {
    if (!(node instanceof MappingNode mapping)) {
      throw error(node, setting, "expected a mapping of settings");
    }
    Map<String, Node> entries = new LinkedHashMap<>();
    for (NodeTuple tuple : mapping.getValue()) {
      String key = scalar(tuple.getKeyNode(), setting);
      String path = setting.isEmpty() ? key : setting + "." + key;
      if (allowed != null && !allowed.contains(key)) {
        throw error(
            tuple.getKeyNode(),
            path,
            "unknown setting (expected one of " + String.join(", ", allowed) + ")");
      }
      if (entries.put(key, tuple.getValueNode()) != null) {
        throw error(tuple.getKeyNode(), path, "given twice");
      }
    }
    return entries;
  }

  String scalar(Node node, String setting) {
    if (!(node instanceof ScalarNode scalar)) {
      throw error(node, setting, "expected a single value");
    }
    return scalar.getValue();
  }

  boolean bool(Node node, String setting) {
    String text = scalar(node, setting);
    return switch (text) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> throw error(node, setting, "expected true or false, got '" + text + "'");
    };
  }

  List<String> strings(Node node, String setting) {
    if (!(node instanceof SequenceNode seq)) {
      throw error(node, setting, "expected a list");
    }
    return seq.getValue().stream().map(n -> scalar(n, setting)).toList();
  }

  Map<String, String> stringMap(Node node, String setting) {
    Map<String, String> out = new LinkedHashMap<>();
    mapping(node, setting, null).forEach((k, v) -> out.put(k, scalar(v, setting + "." + k)));
    return out;
  }

  /** Converts a scalar, turning a conversion failure into an error at the node's line. */
  <T> T convert(Node node, String setting, Function<String, T> convert) {
    String text = scalar(node, setting);
    try {
      return convert.apply(text);
    } catch (ValidationException e) {
      throw error(node, setting, problemOf(e));
    } catch (NumberFormatException e) {
      throw error(node, setting, "'" + text + "' is not a number");
    }
  }

  /**
   * Builds a value from already read {@code fields}; a validation failure is reported at the line
   * of the field it names, or at {@code whole} when the field is not in the file.
   */
  <T> T build(
      Node whole, Map<String, Node> fields, String setting, java.util.function.Supplier<T> build) {
    try {
      return build.get();
    } catch (ConfigException e) {
      throw e;
    } catch (ValidationException e) {
      throw error(fields.getOrDefault(e.field(), whole), setting + "." + e.field(), problemOf(e));
    }
  }

  static String problemOf(ValidationException e) {
    String prefix = e.field() + ": ";
    String message = e.getMessage();
    return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
  }
}
