package dev.drover.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.statement.Query;

/**
 * Builds the WHERE clause of a search from optional filters: each filter is a fixed SQL fragment
 * with named parameters; only the choice of fragments is dynamic.
 */
final class Where {
  private final List<String> clauses = new ArrayList<>();
  private final Map<String, Object> values = new LinkedHashMap<>();
  private final Map<String, List<?>> lists = new LinkedHashMap<>();

  /** Adds {@code clause} binding {@code name} to {@code value}, unless value is null. */
  Where eq(String clause, String name, Object value) {
    if (value != null) {
      clauses.add(clause);
      values.put(name, value);
    }
    return this;
  }

  /** Adds {@code clause} (holding {@code <name>}) for a list, unless it is empty. */
  Where in(String clause, String name, List<?> list) {
    if (!list.isEmpty()) {
      clauses.add(clause);
      lists.put(name, list);
    }
    return this;
  }

  String sql() {
    return clauses.isEmpty() ? "" : " WHERE " + String.join(" AND ", clauses);
  }

  Query bind(Query query) {
    values.forEach(query::bind);
    lists.forEach(query::bindList);
    return query;
  }
}
