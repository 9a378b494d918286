package dev.drover.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.TextLines;
import dev.drover.ValidationException;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A file of listed origins, read one entry at a time so that a file of millions is never held
 * whole: JSON Lines (one object per line), or CSV with a header row when the name ends in {@code
 * .csv}. Keys (columns): {@code url} and {@code visit_type} (required), {@code lister} and {@code
 * instance} (default: the command's --lister and --instance), {@code enabled} (default true),
 * {@code last_update}, {@code extra_loader_arguments} (a JSON object; JSON text in CSV), {@code
 * is_fork}, {@code forked_from_url}. Blank lines are skipped. Every line is read; a bad one becomes
 * an {@link Invalid} naming its line and key.
 */
final class OriginFile implements AutoCloseable {
  static final List<String> KEYS =
      List.of(
          "lister",
          "instance",
          "url",
          "visit_type",
          "enabled",
          "last_update",
          "extra_loader_arguments",
          "is_fork",
          "forked_from_url");

  /** What one line of the file holds: an origin, or why it could not be read. */
  sealed interface Entry permits Line, Invalid {
    int number();
  }

  /** One origin of the file, its lister not yet looked up. */
  record Line(
      int number,
      String lister,
      String instance,
      String url,
      String visitType,
      boolean enabled,
      Instant lastUpdate,
      ObjectNode extraLoaderArguments,
      Boolean isFork,
      String forkedFromUrl)
      implements Entry {
    /** The origin to record, for {@code lister} (this line's, looked up). */
    ListedOrigin origin(Lister lister) {
      return new ListedOrigin(
          lister.id(),
          url,
          visitType,
          extraLoaderArguments,
          enabled,
          null,
          null,
          lastUpdate,
          isFork,
          forkedFromUrl);
    }

    /**
     * Why this line cannot be recorded, or null if it can: its lister ({@code null} when none of
     * that name and instance exists), or a value the store refuses.
     */
    Invalid unrecordable(Lister lister) {
      if (lister == null) {
        return new Invalid(
            number,
            "lister",
            "unknown lister '"
                + this.lister
                + "'"
                + (instance.isEmpty() ? "" : " instance '" + instance + "'")
                + " (add it with 'drover lister add', or POST /api/v1/listers)");
      }
      try {
        origin(lister);
        return null;
      } catch (ValidationException e) {
        return new Invalid(number, e.field(), ErrorHandler.problem(e));
      }
    }

    /** What names this line's lister: its name and instance. */
    String listerKey() {
      return lister + "\u0000" + instance;
    }

    /** This line's lister, or null if there is none; {@code found} keeps each lookup's answer. */
    Lister lister(Drover drover, Map<String, Lister> found) {
      return found.computeIfAbsent(
          listerKey(), k -> drover.frontier().listerGet(lister, instance).orElse(null));
    }
  }

  /** A line that could not be read, and why; {@code key} is null when the whole line is wrong. */
  record Invalid(int number, String key, String problem) implements Entry {
    /** {@code file:line: key}, how an error names it. */
    String where(Path file) {
      return file + ":" + number + (key == null ? "" : ": " + key);
    }
  }

  private final String defaultLister;
  private final String defaultInstance;
  private final TextLines text;
  private final CsvRows rows;
  private final List<String> header;

  private OriginFile(
      String defaultLister, String defaultInstance, TextLines text, CsvRows rows, String name) {
    this.defaultLister = defaultLister;
    this.defaultInstance = defaultInstance;
    this.text = text;
    this.rows = rows;
    this.header = rows == null ? null : header(rows, name);
  }

  /** Opens {@code file}; a CSV header with an unknown column is refused at once. */
  static OriginFile open(Path file, String defaultLister, String defaultInstance) {
    if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv")) {
      CsvRows rows = CsvRows.open("FILE", file);
      try {
        return new OriginFile(defaultLister, defaultInstance, null, rows, file.toString());
      } catch (RuntimeException e) {
        rows.close();
        throw e;
      }
    }
    return new OriginFile(
        defaultLister, defaultInstance, TextLines.open("FILE", file), null, file.toString());
  }

  /** The next entry, or null at the end of the file. */
  Entry next() {
    return rows == null ? nextJsonLine() : nextCsvRow();
  }

  @Override
  public void close() {
    if (rows == null) {
      text.close();
    } else {
      rows.close();
    }
  }

  private Entry nextJsonLine() {
    String t = text.next();
    while (t != null && t.isBlank()) {
      t = text.next();
    }
    if (t == null) {
      return null;
    }
    int n = text.number();
    JsonNode node;
    try {
      node = Json.readInput(t);
    } catch (JsonProcessingException e) {
      return new Invalid(n, null, "malformed JSON: " + e.getOriginalMessage());
    }
    return entry(n, node, defaultLister, defaultInstance);
  }

  /**
   * One origin given as a JSON object with the keys of a line of the file (a line's, or one of the
   * HTTP API's {@code POST /origins}), numbered {@code n}.
   */
  static Entry entry(int n, JsonNode node, String defaultLister, String defaultInstance) {
    try {
      if (node == null || !node.isObject()) {
        throw new Bad(
            null,
            "expected a JSON object such as {\"url\": \"https://...\", \"visit_type\": \"git\"}");
      }
      Map<String, String> fields = new LinkedHashMap<>();
      ObjectNode extra = null;
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (e.getKey().equals("extra_loader_arguments") && !e.getValue().isNull()) {
          if (!e.getValue().isObject()) {
            throw new Bad(e.getKey(), "expected a JSON object");
          }
          extra = (ObjectNode) e.getValue();
        } else if (!e.getValue().isNull()) {
          if (!e.getValue().isValueNode()) {
            throw new Bad(e.getKey(), "expected a single value");
          }
          fields.put(e.getKey(), e.getValue().asText());
        } else {
          fields.put(e.getKey(), null);
        }
      }
      return line(n, fields, extra, defaultLister, defaultInstance);
    } catch (Bad b) {
      return new Invalid(n, b.key, b.getMessage());
    }
  }

  /** The header row's columns, each a known key; an empty file has none. */
  private static List<String> header(CsvRows rows, String name) {
    CsvRows.Row headerRow = rows.next();
    if (headerRow == null) {
      return List.of();
    }
    List<String> header = headerRow.cells();
    for (String h : header) {
      if (!KEYS.contains(h)) {
        throw new ValidationException(
            name + ":" + headerRow.line() + ": " + h,
            "unknown column (expected " + String.join(", ", KEYS) + ")");
      }
    }
    return header;
  }

  private Entry nextCsvRow() {
    CsvRows.Row row = header.isEmpty() ? null : rows.next();
    if (row == null) {
      return null;
    }
    int n = row.line();
    try {
      List<String> cells = row.cells();
      if (cells.size() != header.size()) {
        throw new Bad(
            null, "expected " + header.size() + " cells as the header has, got " + cells.size());
      }
      Map<String, String> fields = new LinkedHashMap<>();
      ObjectNode extra = null;
      for (int c = 0; c < header.size(); c++) {
        String value = cells.get(c).isEmpty() ? null : cells.get(c);
        if (header.get(c).equals("extra_loader_arguments")) {
          if (value != null) {
            try {
              extra = Json.parseObject("extra_loader_arguments", value);
            } catch (ValidationException e) {
              throw new Bad("extra_loader_arguments", ErrorHandler.problem(e));
            }
          }
        } else {
          fields.put(header.get(c), value);
        }
      }
      return line(n, fields, extra, defaultLister, defaultInstance);
    } catch (Bad b) {
      return new Invalid(n, b.key, b.getMessage());
    }
  }

  private static Line line(
      int n,
      Map<String, String> f,
      ObjectNode extra,
      String defaultLister,
      String defaultInstance) {
    for (String key : f.keySet()) {
      if (!KEYS.contains(key)) {
        throw new Bad(key, "unknown key (expected " + String.join(", ", KEYS) + ")");
      }
    }
    String url = f.get("url");
    if (url == null || url.isBlank()) {
      throw new Bad("url", "a url is required");
    }
    String visitType = f.get("visit_type");
    if (visitType == null || visitType.isBlank()) {
      throw new Bad("visit_type", "a visit type is required");
    }
    String lister = f.get("lister") != null ? f.get("lister") : defaultLister;
    if (lister == null || lister.isBlank()) {
      throw new Bad("lister", "a lister name is required (in the file, or --lister)");
    }
    String instance =
        f.containsKey("instance")
            ? f.get("instance")
            : f.get("lister") != null ? "" : defaultInstance;
    Instant lastUpdate;
    try {
      lastUpdate = Inputs.instant("last_update", f.get("last_update"));
    } catch (ValidationException e) {
      throw new Bad("last_update", ErrorHandler.problem(e));
    }
    return new Line(
        n,
        lister,
        instance == null ? "" : instance,
        url,
        visitType,
        bool(f, "enabled", true),
        lastUpdate,
        extra,
        f.get("is_fork") == null ? null : bool(f, "is_fork", false),
        f.get("forked_from_url"));
  }

  private static boolean bool(Map<String, String> f, String key, boolean absent) {
    String v = f.get(key);
    if (v == null) {
      return absent;
    }
    return switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "true", "yes", "1" -> true;
      case "false", "no", "0" -> false;
      default -> throw new Bad(key, "expected true or false, got '" + v + "'");
    };
  }

  /** A problem with one line; becomes an {@link Invalid}. */
  private static final class Bad extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String key;

    Bad(String key, String problem) {
      super(problem, null, false, false);
      this.key = key;
    }
  }
}
