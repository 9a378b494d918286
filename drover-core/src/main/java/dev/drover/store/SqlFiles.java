package dev.drover.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loads one query per {@code .sql} file: {@code dev/drover/store/<dialect>/<name>.sql} when a
 * dialect needs its own text, otherwise {@code dev/drover/store/common/<name>.sql}.
 */
final class SqlFiles {
  private final Dialect dialect;
  private final Map<String, String> cache = new ConcurrentHashMap<>();
  private final Map<String, String> names = new ConcurrentHashMap<>();

  SqlFiles(Dialect dialect) {
    this.dialect = dialect;
  }

  String get(String name) {
    return cache.computeIfAbsent(name, this::load);
  }

  /** The query name of a text {@link #get} returned, or null for SQL not from a file. */
  String nameOf(String text) {
    return names.get(text);
  }

  private String load(String name) {
    String text = read("dev/drover/store/" + dialect.sqlFolder() + "/" + name + ".sql");
    if (text == null) {
      text = read("dev/drover/store/common/" + name + ".sql");
    }
    if (text == null) {
      throw new IllegalStateException("no SQL file for query " + name);
    }
    names.put(text, name);
    return text;
  }

  private static String read(String path) {
    try (InputStream in = SqlFiles.class.getClassLoader().getResourceAsStream(path)) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
