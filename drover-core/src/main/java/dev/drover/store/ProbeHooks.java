package dev.drover.store;

import java.sql.PreparedStatement;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.StatementCustomizer;
import org.jdbi.v3.core.transaction.DelegatingTransactionHandler;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

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
          // Around the callback rather than in commit(): the delegate commits through its own
          // bound handler, not through this one. Throwing here rolls the transaction back.
          @Override
          public <R, X extends Exception> R inTransaction(Handle handle, HandleCallback<R, X> work)
              throws X {
            return super.inTransaction(handle, h -> beforeCommit(work.withHandle(h)));
          }

          @Override
          public <R, X extends Exception> R inTransaction(
              Handle handle, TransactionIsolationLevel level, HandleCallback<R, X> work) throws X {
            return super.inTransaction(handle, level, h -> beforeCommit(work.withHandle(h)));
          }

          private <R> R beforeCommit(R result) {
            probe.beforeCommit();
            return result;
          }
        });
  }
}
