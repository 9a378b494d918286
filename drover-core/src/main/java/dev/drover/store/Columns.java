package dev.drover.store;

import dev.drover.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes column values the way each dialect stores them: SQLite keeps instants as
 * INTEGER milliseconds, PostgreSQL as timestamptz. Durations are milliseconds on both.
 */
final class Columns {
  private final Dialect dialect;

  Columns(Dialect dialect) {
    this.dialect = dialect;
  }

  Instant instant(ResultSet rs, String column) throws SQLException {
    if (dialect == Dialect.SQLITE) {
      long ms = rs.getLong(column);
      return rs.wasNull() ? null : Instant.ofEpochMilli(ms);
    }
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }

  /** The value to bind for an instant; truncated to milliseconds so both dialects agree. */
  static Object bindable(Dialect dialect, Instant t) {
    if (t == null) {
      return null;
    }
    long ms = t.toEpochMilli();
    return dialect == Dialect.SQLITE
        ? (Object) ms
        : OffsetDateTime.ofInstant(Instant.ofEpochMilli(ms), ZoneOffset.UTC);
  }

  static Duration duration(ResultSet rs, String column) throws SQLException {
    long ms = rs.getLong(column);
    return rs.wasNull() ? null : Duration.ofMillis(ms);
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
