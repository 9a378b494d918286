package dev.drover.app.http;

import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.app.ApiBridge;
import dev.drover.store.Store;
import io.javalin.http.Context;
import java.util.List;

/**
 * The dashboard's control forms: pause, resume, cancel, retry and delete a task (with its tree
 * where that applies), pause and resume a task type. {@link DashGuard} has checked the session and
 * the CSRF token before any of these runs. Each answers POST-redirect-GET: back to the page, with a
 * one-line message saying what happened. Nothing here runs a command.
 */
final class DashControls {
  private final Drover drover;
  private final Sessions sessions;
  private final RunFiles files;
  private final Runnable onNewWork;

  DashControls(Drover drover, Sessions sessions, RunFiles files, Runnable onNewWork) {
    this.drover = drover;
    this.sessions = sessions;
    this.files = files;
    this.onNewWork = onNewWork;
  }

  void pause(Context ctx) {
    done(ctx, "paused", drover.taskPause(ids(ctx), tree(ctx)), "only waiting tasks pause");
  }

  void resume(Context ctx) {
    int changed = drover.taskResume(ids(ctx), tree(ctx));
    onNewWork.run();
    done(ctx, "resumed", changed, "only paused tasks resume");
  }

  void cancel(Context ctx) {
    done(ctx, "cancelled", drover.taskCancel(ids(ctx), tree(ctx)), "final tasks stay as they are");
  }

  void retry(Context ctx) {
    int changed = drover.taskRetry(ids(ctx));
    onNewWork.run();
    done(ctx, "retried", changed, "running tasks and waiting parents are left alone");
  }

  void delete(Context ctx) {
    long id = ids(ctx).get(0);
    Store.TaskDeletion d = drover.taskDelete(List.of(id), tree(ctx));
    int dirs = files.remove(d.runs());
    flash(ctx, ApiBridge.deletionSummary(d, dirs));
    ctx.redirect(d.tasks() == 0 ? "/tasks/" + id : "/tasks");
  }

  void pauseType(Context ctx) {
    typePause(ctx, true);
  }

  void resumeType(Context ctx) {
    typePause(ctx, false);
  }

  private void typePause(Context ctx, boolean paused) {
    String name = ctx.pathParam("name");
    if (drover.taskType(name).isEmpty()) {
      throw ApiError.notFound("name", "no task type '" + name + "'");
    }
    boolean changed = drover.taskTypePause(name, paused);
    if (!paused) {
      onNewWork.run();
    }
    String verb = paused ? "paused" : "resumed";
    flash(
        ctx,
        changed ? verb + " task type " + name : "task type " + name + " was " + verb + " already");
    ctx.redirect("/task-types");
  }

  private void done(Context ctx, String verb, int changed, String why) {
    long id = Params.id(ctx, "id");
    flash(ctx, verb + " " + tasks(changed) + (changed == 0 ? " (" + why + ")" : ""));
    ctx.redirect("/tasks/" + id);
  }

  /** The task of the path, which must exist: a control on no task is a 404, not a no-op. */
  private List<Long> ids(Context ctx) {
    long id = Params.id(ctx, "id");
    if (drover.task(id).isEmpty()) {
      throw ApiError.notFound("id", "no task " + id);
    }
    return List.of(id);
  }

  private static boolean tree(Context ctx) {
    String tree = ctx.formParam("tree");
    ValidationException.check(
        tree == null || tree.equals("on"), "tree", "expected 'on' or nothing, got '" + tree + "'");
    return tree != null;
  }

  private void flash(Context ctx, String message) {
    sessions.current(ctx).ifPresent(s -> s.flash(message));
  }

  private static String tasks(int n) {
    return n + (n == 1 ? " task" : " tasks");
  }
}
