package dev.drover.store;

import java.lang.reflect.Array;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * A list bound as one PostgreSQL array parameter in the binary format: the driver's {@code
 * setObject} of a typed Java array ({@code Long[]}, {@code Integer[]}, {@code String[]}, {@code
 * Boolean[]}). Jdbi's {@code bindArray} goes through {@code createArrayOf} instead, whose array
 * text the driver writes element by element, escaping each string, and the server parses back. A
 * runner's pass binds about twenty arrays of up to a thousand elements; formatting them took a
 * quarter of the time of the thread that writes its results, which the runner waits for.
 */
final class PgArray implements Argument {
  private final Object[] values;

  private PgArray(Object[] values) {
    this.values = values;
  }

  /** {@code values} as an array of {@code type}, nulls kept. */
  static <T> PgArray of(Class<T> type, Collection<? extends T> values) {
    @SuppressWarnings("unchecked")
    T[] empty = (T[]) Array.newInstance(type, 0);
    return new PgArray(values.toArray(empty));
  }

  @Override
  public void apply(int position, PreparedStatement statement, StatementContext ctx)
      throws SQLException {
    statement.setObject(position, values);
  }

  @Override
  public String toString() {
    return "array of " + values.length; // as Jdbi shows a parameter in an error
  }
}
