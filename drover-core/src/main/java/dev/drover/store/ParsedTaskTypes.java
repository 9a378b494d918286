package dev.drover.store;

import dev.drover.model.TaskType;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Maps task_type rows, reusing the type parsed from an identical row: ending runs reads the type's
 * row every time (so it sees the type as stored), but parsing and validating the row (JSON columns,
 * cron, durations, the name's pattern) cost more than comparing its raw values.
 *
 * <p>It also remembers each type as last read, with its row's version (V020), for a single create
 * to use without reading the row again: the create's statement checks that the version is still the
 * stored one ({@link TaskInserts}).
 */
final class ParsedTaskTypes {
  /** A type as read, and the version its row had then. */
  record Known(TaskType type, long version) {}

  private final Rows rows;
  private final Map<String, Parsed> last = new ConcurrentHashMap<>();

  ParsedTaskTypes(Rows rows) {
    this.rows = rows;
  }

  TaskType map(ResultSet rs, StatementContext ctx) throws SQLException {
    return mapKnown(rs, ctx).type();
  }

  Known mapKnown(ResultSet rs, StatementContext ctx) throws SQLException {
    int columns = rs.getMetaData().getColumnCount();
    List<Object> raw = new ArrayList<>(columns);
    for (int i = 1; i <= columns; i++) {
      raw.add(rs.getObject(i));
    }
    String name = rs.getString("name");
    Parsed parsed = last.get(name);
    if (parsed == null || !parsed.raw.equals(raw)) {
      parsed = new Parsed(raw, new Known(rows.taskType.map(rs, ctx), rs.getLong("version")));
      last.put(name, parsed);
    }
    return parsed.known;
  }

  /** The type named {@code name} as this process last read it, if it did. */
  Optional<Known> known(String name) {
    Parsed p = last.get(name);
    return p == null ? Optional.empty() : Optional.of(p.known);
  }

  private record Parsed(List<Object> raw, Known known) {}
}
