package dev.drover.store;

import dev.drover.model.TaskType;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Maps task_type rows, reusing the type parsed from an identical row: creating a task and ending
 * runs read the type's row every time (so they see the type as stored), but parsing and validating
 * the row (JSON columns, cron, durations, the name's pattern) cost more than comparing its raw
 * values.
 */
final class ParsedTaskTypes {
  private final Rows rows;
  private final Map<String, Parsed> last = new ConcurrentHashMap<>();

  ParsedTaskTypes(Rows rows) {
    this.rows = rows;
  }

  TaskType map(ResultSet rs, StatementContext ctx) throws SQLException {
    int columns = rs.getMetaData().getColumnCount();
    List<Object> raw = new ArrayList<>(columns);
    for (int i = 1; i <= columns; i++) {
      raw.add(rs.getObject(i));
    }
    String name = rs.getString("name");
    Parsed parsed = last.get(name);
    if (parsed == null || !parsed.raw.equals(raw)) {
      parsed = new Parsed(raw, rows.taskType.map(rs, ctx));
      last.put(name, parsed);
    }
    return parsed.type;
  }

  private record Parsed(List<Object> raw, TaskType type) {}
}
