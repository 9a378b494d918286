package dev.drover.store;

import dev.drover.Json;
import dev.drover.model.ArchivableRun;
import dev.drover.model.ChildrenRule;
import dev.drover.model.CronSchedule;
import dev.drover.model.Event;
import dev.drover.model.RunHistory;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.model.WorkerGroup;
import org.jdbi.v3.core.mapper.RowMapper;

/** Row mappers from the stored columns to the model records. */
final class Rows {
  final RowMapper<TaskType> taskType;
  final RowMapper<Task> task;
  final RowMapper<TaskRun> taskRun;

  /** A task row with its lease columns, as claims and the rescuer read it. */
  final RowMapper<Leased> leased;

  /** A task row with its lease columns and one of its runs, whose columns carry a run_ prefix. */
  final RowMapper<LeasedRun> leasedRun;

  final RowMapper<ArchivableRun> archivableRun;
  final RowMapper<Event> event;
  final RowMapper<WorkerGroup> workerGroup =
      (rs, ctx) -> new WorkerGroup(rs.getString("name"), rs.getInt("max_workers"));

  Rows(DialectSql dialect) {
    Columns c = new Columns(dialect);
    taskType =
        (rs, ctx) ->
            new TaskType(
                rs.getString("name"),
                rs.getString("description"),
                Columns.duration(rs, "default_interval_ms"),
                Columns.duration(rs, "min_interval_ms"),
                Columns.duration(rs, "max_interval_ms"),
                rs.getDouble("backoff_factor"),
                rs.getLong("max_queue_length"),
                rs.getInt("num_retries"),
                Columns.duration(rs, "retry_delay_ms"),
                Columns.duration(rs, "lease_ms"),
                Columns.duration(rs, "timeout_ms"),
                rs.getInt("max_workers"),
                rs.getString("worker_group"),
                Columns.stringList(rs, "command"),
                rs.getString("working_dir"),
                Columns.stringMap(rs, "env"),
                rs.getString("concurrency_key"),
                rs.getObject("max_per_key") == null ? null : rs.getInt("max_per_key"),
                rs.getString("cron") == null
                    ? null
                    : CronSchedule.of(rs.getString("cron"), rs.getString("time_zone")),
                ChildrenRule.parse("children_rule", rs.getString("children_rule")),
                RunHistory.parse("run_history", rs.getString("run_history")));
    task =
        (rs, ctx) -> {
          String priority = rs.getString("priority");
          return new Task(
              rs.getLong("id"),
              rs.getString("type"),
              TaskArguments.fromJson(rs.getString("arguments")),
              c.instant(rs, "next_run"),
              Columns.duration(rs, "current_interval_ms"),
              TaskStatus.parse("status", rs.getString("status")),
              TaskPolicy.parse("policy", rs.getString("policy")),
              rs.getInt("retries_left"),
              priority == null ? null : TaskPriority.parse("priority", priority));
        };
    leased = (rs, ctx) -> new Leased(task.map(rs, ctx), rs.getInt("attempt"));
    taskRun =
        (rs, ctx) ->
            new TaskRun(
                rs.getLong("id"),
                rs.getLong("task"),
                rs.getString("backend_id"),
                c.instant(rs, "scheduled"),
                c.instant(rs, "started"),
                c.instant(rs, "ended"),
                Json.readObject(rs.getString("metadata")),
                TaskRunStatus.parse("status", rs.getString("status")));
    leasedRun =
        (rs, ctx) ->
            new LeasedRun(
                leased.map(rs, ctx),
                rs.getObject("run_id") == null
                    ? null
                    : new TaskRun(
                        rs.getLong("run_id"),
                        rs.getLong("id"),
                        rs.getString("run_backend_id"),
                        c.instant(rs, "run_scheduled"),
                        c.instant(rs, "run_started"),
                        c.instant(rs, "run_ended"),
                        Json.readObject(rs.getString("run_metadata")),
                        TaskRunStatus.parse("status", rs.getString("run_status"))));
    event =
        (rs, ctx) -> {
          long task = rs.getLong("task");
          Long taskId = rs.wasNull() ? null : task;
          return new Event(
              rs.getLong("id"),
              c.instant(rs, "at"),
              rs.getString("kind"),
              rs.getString("runner"),
              taskId,
              Json.readObject(rs.getString("detail")));
        };
    archivableRun =
        (rs, ctx) ->
            new ArchivableRun(
                rs.getLong("task_id"),
                TaskPolicy.parse("policy", rs.getString("task_policy")),
                TaskStatus.parse("status", rs.getString("task_status")),
                rs.getString("type"),
                TaskArguments.fromJson(rs.getString("arguments")),
                rs.getLong("task_run_id"),
                rs.getString("backend_id"),
                Json.readObject(rs.getString("metadata")),
                c.instant(rs, "scheduled"),
                c.instant(rs, "started"),
                c.instant(rs, "ended"),
                TaskRunStatus.parse("status", rs.getString("run_status")));
  }

  /** A task and the attempt its current (or last) claim counted. */
  record Leased(Task task, int attempt) {
    Lease lease() {
      return new Lease(task.id(), attempt);
    }
  }

  /** A leased task and a run of it; null if its run was not written (a queued claim). */
  record LeasedRun(Leased leased, TaskRun run) {}
}
