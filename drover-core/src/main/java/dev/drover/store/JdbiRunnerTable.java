package dev.drover.store;

import static dev.drover.store.SqlQuery.LEADER_ACQUIRE;
import static dev.drover.store.SqlQuery.LEADER_GET;
import static dev.drover.store.SqlQuery.LEADER_RELEASE;
import static dev.drover.store.SqlQuery.RUNNER_ACTIVATE;
import static dev.drover.store.SqlQuery.RUNNER_ACTIVE;
import static dev.drover.store.SqlQuery.RUNNER_DELETE;
import static dev.drover.store.SqlQuery.RUNNER_GET;
import static dev.drover.store.SqlQuery.RUNNER_HEARTBEAT;
import static dev.drover.store.SqlQuery.RUNNER_INSERT;
import static dev.drover.store.SqlQuery.RUNNER_LIST;
import static dev.drover.store.SqlQuery.RUNNER_REQUEST_STOP;

import dev.drover.model.RunnerRecord;
import dev.drover.model.RunnerState;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/** The {@link RunnerTable} on either database. */
final class JdbiRunnerTable implements RunnerTable {
  private final Jdbi jdbi;
  private final SqlFiles sql;
  private final RowMapper<RunnerRecord> runner;
  private final RowMapper<LeaderLease> leader;

  JdbiRunnerTable(Jdbi jdbi, DialectSql dialect) {
    this.jdbi = jdbi;
    this.sql = dialect.files();
    Columns c = new Columns(dialect);
    this.runner =
        (rs, ctx) ->
            new RunnerRecord(
                rs.getString("name"),
                rs.getString("host"),
                rs.getLong("pid"),
                c.instant(rs, "pid_started"),
                rs.getString("gate"),
                RunnerState.parse("state", rs.getString("state")),
                c.instant(rs, "started"),
                c.instant(rs, "heartbeat"),
                rs.getString("stop_requested_by"),
                c.instant(rs, "stop_deadline"));
    this.leader =
        (rs, ctx) ->
            new LeaderLease(
                rs.getString("service"), rs.getString("holder"), c.instant(rs, "lease_until"));
  }

  @Override
  public void register(RunnerRecord r) {
    jdbi.useHandle(
        h ->
            h.createUpdate(sql.get(RUNNER_INSERT))
                .bind("name", r.name())
                .bind("host", r.host())
                .bind("pid", r.pid())
                .bind("pid_started", r.pidStarted())
                .bind("gate", r.gate())
                .bind("state", r.state().dbName())
                .bind("started", r.started())
                .bind("heartbeat", r.heartbeat())
                .execute());
  }

  @Override
  public boolean activate(String name, Instant now) {
    try {
      return jdbi.inTransaction(
          h ->
              h.createUpdate(sql.get(RUNNER_ACTIVATE)).bind("name", name).bind("now", now).execute()
                  == 1);
    } catch (UnableToExecuteStatementException e) {
      if (e.getCause() instanceof SQLException s
          && SqlStates.UNIQUE_VIOLATION.equals(s.getSQLState())) {
        return false; // another newcomer activated between our check and our write
      }
      throw e;
    }
  }

  @Override
  public Optional<RunnerRecord> get(String name) {
    return jdbi.withHandle(
        h -> h.createQuery(sql.get(RUNNER_GET)).bind("name", name).map(runner).findOne());
  }

  @Override
  public Optional<RunnerRecord> active(String gate) {
    return jdbi.withHandle(
        h -> h.createQuery(sql.get(RUNNER_ACTIVE)).bind("gate", gate).map(runner).findOne());
  }

  @Override
  public List<RunnerRecord> list() {
    return jdbi.withHandle(h -> h.createQuery(sql.get(RUNNER_LIST)).map(runner).list());
  }

  @Override
  public Optional<RunnerRecord> heartbeat(String name, Instant now) {
    return jdbi.inTransaction(
        h -> {
          h.createUpdate(sql.get(RUNNER_HEARTBEAT)).bind("name", name).bind("now", now).execute();
          return h.createQuery(sql.get(RUNNER_GET)).bind("name", name).map(runner).findOne();
        });
  }

  @Override
  public boolean requestStop(String name, String by, Instant deadline) {
    return jdbi.withHandle(
        h ->
            h.createUpdate(sql.get(RUNNER_REQUEST_STOP))
                    .bind("name", name)
                    .bind("by", by)
                    .bind("deadline", deadline)
                    .execute()
                == 1);
  }

  @Override
  public boolean remove(String name) {
    return jdbi.withHandle(
        h -> h.createUpdate(sql.get(RUNNER_DELETE)).bind("name", name).execute() == 1);
  }

  @Override
  public boolean leaderAcquire(String service, String holder, Instant now, Instant until) {
    return jdbi.inTransaction(
        h ->
            h.createQuery(sql.get(LEADER_ACQUIRE))
                .bind("service", service)
                .bind("holder", holder)
                .bind("now", now)
                .bind("until", until)
                .mapTo(String.class)
                .findOne()
                .isPresent());
  }

  @Override
  public void leaderRelease(String service, String holder) {
    jdbi.useHandle(
        h ->
            h.createUpdate(sql.get(LEADER_RELEASE))
                .bind("service", service)
                .bind("holder", holder)
                .execute());
  }

  @Override
  public Optional<LeaderLease> leader(String service) {
    return jdbi.withHandle(
        h -> h.createQuery(sql.get(LEADER_GET)).bind("service", service).map(leader).findOne());
  }
}
