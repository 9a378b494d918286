package dev.drover.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A reading of PostgreSQL's cumulative statistics for one database: transactions from
 * pg_stat_database, rows written to user tables from pg_stat_user_tables, and the WAL position.
 * Each reading is itself one transaction, which {@link DbCost} subtracts.
 */
record PgStats(
    long transactions, long rowsInserted, long rowsUpdated, long rowsDeleted, long walBytes) {
  static PgStats read(String jdbcUrl) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                """
            SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database
                     WHERE datname = current_database()),
                   (SELECT coalesce(sum(n_tup_ins), 0) FROM pg_stat_user_tables),
                   (SELECT coalesce(sum(n_tup_upd), 0) FROM pg_stat_user_tables),
                   (SELECT coalesce(sum(n_tup_del), 0) FROM pg_stat_user_tables),
                   pg_current_wal_lsn() - '0/0'::pg_lsn""")) {
      rs.next();
      return new PgStats(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
    }
  }

  long rowsWritten() {
    return rowsInserted + rowsUpdated + rowsDeleted;
  }
}
