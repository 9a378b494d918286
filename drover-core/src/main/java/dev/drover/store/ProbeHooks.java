package dev.drover.store;

import java.sql.PreparedStatement;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.StatementCustomizer;
import org.jdbi.v3.core.transaction.DelegatingTransactionHandler;

/** Calls a {@link StoreProbe} before every statement from a SQL file and before every commit. */
final class ProbeHooks {
  private ProbeHooks() {}

  static void install(Jdbi jdbi, SqlFiles sql, StoreProbe probe) {
    jdbi.addCustomizer(
        new StatementCustomizer() {
          @Override
          public void beforeExecution(PreparedStatement statement, StatementContext ctx) {
            String name = sql.nameOf(ctx.getRawSql());
            if (name != null) {
              probe.beforeStatement(name);
            }
          }
        });
    jdbi.setTransactionHandler(
        new DelegatingTransactionHandler(jdbi.getTransactionHandler()) {
          @Override
          public void commit(Handle handle) {
            probe.beforeCommit();
            super.commit(handle);
          }
        });
  }
}
