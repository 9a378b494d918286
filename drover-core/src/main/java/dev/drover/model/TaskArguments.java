package dev.drover.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.ValidationException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The positional and keyword arguments of a task, stored as {@code {"args": [...], "kwargs":
 * {...}}}.
 */
public record TaskArguments(ArrayNode args, ObjectNode kwargs) {

  public TaskArguments {
    args = args == null ? Json.array() : args.deepCopy();
    kwargs = kwargs == null ? Json.object() : kwargs.deepCopy();
  }

  public static TaskArguments empty() {
    return new TaskArguments(null, null);
  }

  /** Builds arguments from plain Java values (anything Jackson can write). */
  public static TaskArguments of(List<?> args, Map<String, ?> kwargs) {
    return new TaskArguments(
        (ArrayNode) PlainTrees.of(args == null ? List.of() : args),
        (ObjectNode) PlainTrees.of(kwargs == null ? Map.of() : kwargs));
  }

  /** Parses the JSON texts given on the command line; either may be null for "none". */
  public static TaskArguments parse(String argsJson, String kwargsJson) {
    return new TaskArguments(
        argsJson == null ? null : Json.parseArray("args", argsJson),
        kwargsJson == null ? null : Json.parseObject("kwargs", kwargsJson));
  }

  /** Reads the stored form. */
  public static TaskArguments fromJson(String stored) {
    JsonNode node = Json.read(stored);
    JsonNode args = node == null ? null : node.get("args");
    JsonNode kwargs = node == null ? null : node.get("kwargs");
    if ((args != null && !args.isArray()) || (kwargs != null && !kwargs.isObject())) {
      throw new ValidationException("arguments", "expected {\"args\": [...], \"kwargs\": {...}}");
    }
    return new TaskArguments((ArrayNode) args, (ObjectNode) kwargs);
  }

  /** The stored form, canonical so equal arguments have equal text. */
  public String toJson() {
    ObjectNode node = Json.object();
    node.set("args", args);
    node.set("kwargs", kwargs);
    return Json.canonical(node);
  }

  /** SHA-256 of the canonical text: the indexed key that finds duplicates. */
  public String hash() {
    return hashOf(toJson());
  }

  /** The {@link #hash} of arguments whose {@link #toJson} is {@code json}, without redoing it. */
  public static String hashOf(String json) {
    byte[] digest = newSha256().digest(json.getBytes(StandardCharsets.UTF_8));
    return HEX.formatHex(digest);
  }

  private static final HexFormat HEX = HexFormat.of();

  /** Cloned per hash: cheaper than getInstance, which searches the security providers each time. */
  private static final MessageDigest SHA_256 = sha256();

  private static MessageDigest newSha256() {
    try {
      return (MessageDigest) SHA_256.clone();
    } catch (CloneNotSupportedException e) {
      return sha256();
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
