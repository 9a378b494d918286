package dev.drover.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Loads one {@link SqlQuery} per {@code .sql} file, from where the query says it lives: {@code
 * dev/drover/store/common/<name>.sql} when both databases share its text, else {@code
 * dev/drover/store/<dialect>/<name>.sql}. A file in a dialect's folder never overrides a common
 * one: a query has exactly one file per database, so reading the folders tells which text runs, and
 * a file that would shadow another is refused.
 *
 * <p>A query's text is its file without the lines that are only a comment: the comments explain the
 * file to its reader, and the store runs a statement's text through the template engine, hashes it
 * for each cache it is a key of and sends it to the database at every execution.
 */
final class SqlFiles {
  static final String ROOT = "dev/drover/store";
  static final String COMMON = "common";

  private final String root;
  private final Dialect dialect;
  private final Map<SqlQuery, String> cache = new ConcurrentHashMap<>();
  private final Map<String, String> names = new ConcurrentHashMap<>();

  SqlFiles(Dialect dialect) {
    this(ROOT, dialect);
  }

  /** Files under {@code root} instead of the store's own (for tests of the rules). */
  SqlFiles(String root, Dialect dialect) {
    this.root = root;
    this.dialect = dialect;
  }

  String get(SqlQuery query) {
    return cache.computeIfAbsent(query, this::load);
  }

  /** The query name of a text {@link #get} returned, or null for SQL not from a file. */
  String nameOf(String text) {
    return names.get(text);
  }

  private String load(SqlQuery query) {
    if (!query.runsOn(dialect)) {
      throw new IllegalStateException(
          "query "
              + query.fileName()
              + " is not run on "
              + dialect
              + " (it is "
              + query.home()
              + ")");
    }
    String name = query.fileName();
    String common = read(path(COMMON, name));
    String own = read(path(dialect.sqlFolder(), name));
    String text = query.home() == SqlQuery.Home.COMMON ? common : own;
    String shadow = query.home() == SqlQuery.Home.COMMON ? own : common;
    if (shadow != null) {
      throw new IllegalStateException(
          "SQL file "
              + path(COMMON, name)
              + " and "
              + path(dialect.sqlFolder(), name)
              + " both exist: a dialect's file may not shadow a"
              + " common one; query "
              + name
              + " is "
              + query.home());
    }
    if (text == null) {
      throw new IllegalStateException(
          "no SQL file for query " + name + " (" + query.home() + ") on " + dialect);
    }
    String statement = withoutCommentLines(text);
    names.put(statement, name);
    return statement;
  }

  /** {@code text} without its lines that hold only a {@code --} comment. */
  static String withoutCommentLines(String text) {
    return text.lines()
        .filter(line -> !line.stripLeading().startsWith("--"))
        .collect(Collectors.joining("\n"));
  }

  private String path(String folder, String name) {
    return root + "/" + folder + "/" + name + ".sql";
  }

  private static String read(String path) {
    try (InputStream in = SqlFiles.class.getClassLoader().getResourceAsStream(path)) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
