package dev.drover.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where PostgreSQL spent its time, for finding what limits a workload: with {@code
 * -Ddrover.bench.pgStatStatements=true} the embedded PostgreSQL loads pg_stat_statements, and a
 * workload can reset it before a phase and read the statements that took longest after it.
 */
final class SqlProfile {
  static final boolean ENABLED = Boolean.getBoolean("drover.bench.pgStatStatements");
  private static final int TOP = 8;

  private SqlProfile() {}

  static void reset(String jdbcUrl) throws SQLException {
    if (!ENABLED || jdbcUrl == null) {
      return;
    }
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      s.execute("SELECT pg_stat_statements_reset()");
    }
  }

  /** The statements of this database that took longest since the last reset, longest first. */
  static List<Map<String, Object>> top(String jdbcUrl) throws SQLException {
    return top(jdbcUrl, TOP);
  }

  /** As {@link #top(String)}, the {@code limit} longest. */
  static List<Map<String, Object>> top(String jdbcUrl, int limit) throws SQLException {
    List<Map<String, Object>> top = new ArrayList<>();
    if (!ENABLED || jdbcUrl == null) {
      return top;
    }
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT calls, total_exec_time, mean_exec_time, rows, "
                    + "shared_blks_hit + shared_blks_read AS blocks, "
                    + "wal_records, wal_fpi, wal_bytes, "
                    + "regexp_replace(query, '\\s+', ' ', 'g') AS query FROM pg_stat_statements "
                    + "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = "
                    + "current_database()) "
                    + "ORDER BY total_exec_time DESC LIMIT "
                    + limit)) {
      while (rs.next()) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("calls", rs.getLong("calls"));
        row.put("total_ms", Math.round(rs.getDouble("total_exec_time")));
        row.put("mean_ms", rs.getDouble("mean_exec_time"));
        row.put("rows", rs.getLong("rows"));
        row.put("blocks", rs.getLong("blocks"));
        row.put("wal_records", rs.getLong("wal_records"));
        row.put("wal_fpi", rs.getLong("wal_fpi"));
        row.put("wal_bytes", rs.getLong("wal_bytes"));
        String q = rs.getString("query");
        row.put("query", q.length() > 160 ? q.substring(0, 160) + "..." : q);
        top.add(row);
      }
    }
    return top;
  }

  /**
   * The on-disk size in bytes of each table whose name starts with one of {@code prefixes}, and of
   * each of its indexes, largest first. Read whether or not profiling is on: it costs nothing.
   */
  static Map<String, Long> relationSizes(String jdbcUrl, String... prefixes) throws SQLException {
    Map<String, Long> sizes = new LinkedHashMap<>();
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT c.relname, pg_relation_size(c.oid) FROM pg_class c "
                    + "JOIN pg_namespace n ON n.oid = c.relnamespace "
                    + "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i') "
                    + "ORDER BY 2 DESC")) {
      while (rs.next()) {
        String name = rs.getString(1);
        for (String p : prefixes) {
          if (name.startsWith(p)) {
            sizes.put(name, rs.getLong(2));
            break;
          }
        }
      }
    }
    return sizes;
  }

  /** Where the WAL is now, for {@link #walByRecordType}; null without PostgreSQL. */
  static String walPosition(String jdbcUrl) throws SQLException {
    if (jdbcUrl == null) {
      return null;
    }
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /**
   * The WAL the whole server wrote since {@code from}, by kind of record, most bytes first: how
   * many records, their bytes, and the bytes of the whole pages they logged. Empty if {@code from}
   * is null; the error's message if the WAL since then was already recycled.
   */
  static List<Map<String, Object>> walByRecordType(String jdbcUrl, String from, int limit) {
    List<Map<String, Object>> kinds = new ArrayList<>();
    if (from == null) {
      return kinds;
    }
    try {
      for (WalKind k : walKinds(jdbcUrl, from, null).stream().limit(limit).toList()) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("kind", k.kind());
        row.put("count", k.count());
        row.put("record_bytes", k.recordBytes());
        row.put("fpi_bytes", k.fpiBytes());
        kinds.add(row);
      }
    } catch (SQLException e) {
      kinds.add(Map.of("error", String.valueOf(e.getMessage())));
    }
    return kinds;
  }

  /**
   * The bytes of WAL records, and of the whole pages they logged, that the server wrote from {@code
   * from} to {@code to}; null if either is null.
   */
  static long[] walBytesBetween(String jdbcUrl, String from, String to) throws SQLException {
    if (from == null || to == null) {
      return null;
    }
    List<WalKind> kinds = walKinds(jdbcUrl, from, to);
    return new long[] {
      kinds.stream().mapToLong(WalKind::recordBytes).sum(),
      kinds.stream().mapToLong(WalKind::fpiBytes).sum()
    };
  }

  /** One kind of WAL record in a range: how many, their bytes, the bytes of their whole pages. */
  private record WalKind(String kind, long count, long recordBytes, long fpiBytes) {}

  /**
   * The kinds of record the server wrote from {@code from} to {@code to} (now, if null), most bytes
   * first, as pg_walinspect reads them from the WAL.
   */
  private static List<WalKind> walKinds(String jdbcUrl, String from, String to)
      throws SQLException {
    List<WalKind> kinds = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect");
      }
      try (PreparedStatement p =
          c.prepareStatement(
              """
              SELECT "resource_manager/record_type", count, record_size, fpi_size
              FROM pg_get_wal_stats(?::pg_lsn, coalesce(?::pg_lsn, pg_current_wal_lsn()), true)
              WHERE count > 0
              ORDER BY combined_size DESC""")) {
        p.setString(1, from);
        p.setString(2, to);
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            kinds.add(new WalKind(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)));
          }
        }
      }
    }
    return kinds;
  }
}
