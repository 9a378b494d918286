package dev.drover.store;

import java.time.Instant;
import org.jdbi.v3.core.argument.AbstractArgumentFactory;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.config.ConfigRegistry;

/** Binds {@link Instant} as each dialect stores it (see {@link Columns}). */
final class InstantArgumentFactory extends AbstractArgumentFactory<Instant> {
  private final DialectSql dialect;

  InstantArgumentFactory(DialectSql dialect) {
    super(dialect.instantSqlType());
    this.dialect = dialect;
  }

  @Override
  protected Argument build(Instant value, ConfigRegistry config) {
    Object bound = Columns.bindable(dialect, value);
    return (position, statement, ctx) -> statement.setObject(position, bound);
  }
}
