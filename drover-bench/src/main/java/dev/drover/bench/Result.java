package dev.drover.bench;

import java.util.Map;

/**
 * What one workload measured on one system and database, or why it failed.
 *
 * @param figures the summary figures, by column key; empty when it failed
 * @param raw the raw figures behind them
 * @param error what went wrong, or null
 */
record Result(
    String system,
    String db,
    String workload,
    Map<String, Number> figures,
    Map<String, Object> raw,
    String error) {
  static Result of(String system, String db, String workload, Workload.Measurement m) {
    return new Result(system, db, workload, m.figures(), m.raw(), null);
  }

  static Result failed(String system, String db, String workload, Throwable e) {
    return new Result(system, db, workload, Map.of(), Map.of(), String.valueOf(e));
  }

  boolean ok() {
    return error == null;
  }
}
