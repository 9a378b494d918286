package dev.drover.store;

import dev.drover.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes column values the way each dialect stores them: instants as the dialect says
 * ({@link DialectSql#instant}: SQLite keeps INTEGER milliseconds, PostgreSQL timestamptz);
 * durations are milliseconds on both.
 */
final class Columns {
  private final DialectSql dialect;

  Columns(DialectSql dialect) {
    this.dialect = dialect;
  }

  Instant instant(ResultSet rs, String column) throws SQLException {
    return dialect.instant(rs, column);
  }

  /** The value to bind for an instant; truncated to milliseconds so both dialects agree. */
  static Object bindable(DialectSql dialect, Instant t) {
    return t == null ? null : dialect.instantValue(toMillis(t));
  }

  /** An instant as both dialects store it: truncated to milliseconds; null stays null. */
  static Instant toMillis(Instant t) {
    return t == null ? null : Instant.ofEpochMilli(t.toEpochMilli());
  }

  static Duration duration(ResultSet rs, String column) throws SQLException {
    long ms = rs.getLong(column);
    return rs.wasNull() ? null : Duration.ofMillis(ms);
  }

  /** Epoch milliseconds, as batches carry times; null stays null. */
  static Long millis(Instant t) {
    return t == null ? null : t.toEpochMilli();
  }

  static Long millis(Duration d) {
    return d == null ? null : d.toMillis();
  }

  static String json(Object value) {
    return value == null ? null : Json.canonical(Json.MAPPER.valueToTree(value));
  }

  @SuppressWarnings("unchecked")
  static List<String> stringList(ResultSet rs, String column) throws SQLException {
    String text = rs.getString(column);
    return text == null ? null : Json.MAPPER.convertValue(Json.read(text), List.class);
  }

  @SuppressWarnings("unchecked")
  static Map<String, String> stringMap(ResultSet rs, String column) throws SQLException {
    String text = rs.getString(column);
    return text == null ? Map.of() : Json.MAPPER.convertValue(Json.read(text), Map.class);
  }
}
