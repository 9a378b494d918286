package dev.drover.app.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.app.ApiBridge;
import dev.drover.model.Task;
import dev.drover.model.TaskStatus;
import dev.drover.store.Store;
import io.javalin.http.Context;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operator control, as the CLI's {@code task pause|resume|cancel|retry|delete} and {@code task-type
 * pause|resume}: one task of the path ({@code ?tree=true}: it and every task below it), answered
 * with how many changed. A task or type that does not exist is a 404 and changes nothing.
 */
final class ControlRoutes {
  private static final Logger log = LoggerFactory.getLogger(ControlRoutes.class);
  private static final String TREE = "tree";

  private final Drover drover;
  private final ServedRunner runner;

  ControlRoutes(Drover drover, ServedRunner runner) {
    this.drover = drover;
    this.runner = runner;
  }

  /**
   * {@code POST /tasks/{id}/pause}: {@code running} counts the named task if it is running: it
   * finishes its run and is paused then.
   */
  void pause(Context ctx) {
    Task task = existing(ctx);
    boolean tree = Params.flag(ctx, TREE);
    int changed = drover.taskPause(List.of(task.id()), tree);
    ObjectNode body = changed(changed);
    body.put("running", task.status() == TaskStatus.NEXT_RUN_SCHEDULED ? 1 : 0);
    Reply.json(ctx, body);
  }

  void resume(Context ctx) {
    Task task = existing(ctx);
    int changed = drover.taskResume(List.of(task.id()), Params.flag(ctx, TREE));
    runner.wake().run();
    Reply.json(ctx, changed(changed));
  }

  /** {@code POST /tasks/{id}/cancel}: a running task is stopped by its runner. */
  void cancel(Context ctx) {
    Task task = existing(ctx);
    Reply.json(ctx, changed(drover.taskCancel(List.of(task.id()), Params.flag(ctx, TREE))));
  }

  /** {@code POST /tasks/{id}/retry}: no {@code tree}, as in the CLI. */
  void retry(Context ctx) {
    Task task = existing(ctx);
    ValidationException.check(
        ctx.queryParam(TREE) == null,
        TREE,
        "does not apply to retry: a retried parent spawns its children again");
    int changed = drover.taskRetry(List.of(task.id()));
    runner.wake().run();
    Reply.json(ctx, changed(changed));
  }

  /**
   * {@code DELETE /tasks/{id}}: the task (with {@code tree}, every task below it too), its runs and
   * their directories; answers how many of each were removed, as {@code task delete} prints.
   */
  void delete(Context ctx) {
    Task task = existing(ctx);
    boolean tree = Params.flag(ctx, TREE);
    Store.TaskDeletion d = drover.taskDelete(List.of(task.id()), tree);
    int dirs = ApiBridge.removeRunDirectories(runner.runsDir(), d.runs(), w -> log.warn("{}", w));
    ObjectNode body = Json.object();
    body.put("tasks", d.tasks());
    body.put("runs", d.runs().size());
    body.put("run_directories", dirs);
    Reply.json(ctx, body);
  }

  void pauseType(Context ctx) {
    pauseType(ctx, true);
  }

  void resumeType(Context ctx) {
    pauseType(ctx, false);
    runner.wake().run();
  }

  private void pauseType(Context ctx, boolean paused) {
    String name = ctx.pathParam("name");
    if (!drover.taskTypePause(name, paused)) {
      throw ApiError.notFound("name", "no task type '" + name + "'");
    }
    Reply.json(ctx, Json.object().put("name", name).put("paused", paused));
  }

  /**
   * The task of the path, read before anything changes: a bad {@code tree} is refused after it (a
   * 404 first), but before any write.
   */
  private Task existing(Context ctx) {
    long id = Params.id(ctx, "id");
    Task task = drover.task(id).orElseThrow(() -> ApiError.notFound("id", "no task " + id));
    Params.flag(ctx, TREE);
    return task;
  }

  private static ObjectNode changed(int n) {
    return Json.object().put("changed", n);
  }
}
