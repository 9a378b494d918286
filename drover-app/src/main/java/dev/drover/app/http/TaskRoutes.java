package dev.drover.app.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.app.ApiBridge;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Tasks: list (keyset pages), get (with its family), create one or a batch, disable and enable,
 * their runs. Operator control is {@link ControlRoutes}; a task's tree is {@link TreeRoute}.
 */
final class TaskRoutes {
  static final int DEFAULT_LIMIT = 100;
  static final int MAX_LIMIT = 1000;

  private final Drover drover;
  private final ServedRunner runner;

  TaskRoutes(Drover drover, ServedRunner runner) {
    this.drover = drover;
    this.runner = runner;
  }

  /**
   * {@code GET /tasks?after=ID&limit=N&type=T&status=S}: tasks in id order after {@code after}, as
   * {@code {"items": [...], "next": ID or null}}; pass {@code next} as {@code after} for the next
   * page. Keyset, not offset: a page costs the same however deep, and tasks created meanwhile
   * neither shift nor repeat rows.
   */
  void list(Context ctx) {
    Long after = Params.whole(ctx, "after", 0);
    int limit = Params.limit(ctx, DEFAULT_LIMIT, MAX_LIMIT);
    List<String> types = ctx.queryParams("type");
    List<TaskStatus> statuses = new ArrayList<>();
    for (String s : ctx.queryParams("status")) {
      statuses.add(TaskStatus.parse("status", s));
    }
    TaskQuery query =
        new TaskQuery(null, types, statuses, null, null, null, null, limit + 1, after);
    List<Task> tasks = drover.taskSearch(query);
    boolean more = tasks.size() > limit;
    tasks = more ? tasks.subList(0, limit) : tasks;
    ObjectNode page = Json.object();
    page.set("items", array(tasks));
    if (more) {
      page.put("next", tasks.get(tasks.size() - 1).id());
    } else {
      page.putNull("next");
    }
    Reply.json(ctx, page);
  }

  /** {@code GET /tasks/{id}}: as {@code task show --json}'s task, with its family. */
  void get(Context ctx) {
    long id = Params.id(ctx, "id");
    Task t = drover.task(id).orElseThrow(() -> ApiError.notFound("id", "no task " + id));
    // A task deleted in between has no family: it is gone.
    TaskFamily family =
        drover.taskFamily(id).orElseThrow(() -> ApiError.notFound("id", "no task " + id));
    Reply.json(ctx, ApiBridge.task(t, family));
  }

  /** {@code POST /tasks}: one task; answers the stored task (an equal waiting one if any). */
  void create(Context ctx) {
    NewTask task = TaskJson.one(JsonBody.read(ctx));
    List<Task> stored = create(List.of(task), false);
    Reply.json(ctx, ApiBridge.task(stored.get(0)));
  }

  /** {@code POST /tasks/batch}: all or nothing; answers the stored tasks, one per distinct task. */
  void createBatch(Context ctx) {
    List<NewTask> tasks = TaskJson.batch(JsonBody.read(ctx));
    List<Task> stored = create(tasks, true);
    Map<Long, Task> distinct =
        stored.stream()
            .collect(
                Collectors.toMap(Task::id, Function.identity(), (a, b) -> a, LinkedHashMap::new));
    Reply.json(ctx, array(List.copyOf(distinct.values())));
  }

  private List<Task> create(List<NewTask> tasks, boolean batch) {
    Map<String, TaskType> types =
        drover.taskTypes().stream().collect(Collectors.toMap(TaskType::name, t -> t));
    TaskChecks.checkAll(types, runner.handledTypes(), tasks, batch);
    List<Task> stored = drover.taskCreate(tasks);
    runner.wake().run();
    return stored;
  }

  void disable(Context ctx) {
    long id = existing(ctx);
    Reply.json(ctx, Json.object().put("changed", drover.taskDisable(List.of(id))));
  }

  void enable(Context ctx) {
    long id = existing(ctx);
    int changed = drover.taskEnable(List.of(id));
    runner.wake().run();
    Reply.json(ctx, Json.object().put("changed", changed));
  }

  /** {@code GET /tasks/{id}/runs?status=S&limit=N}: newest first, as {@code task-run list}. */
  void runs(Context ctx) {
    long id = existing(ctx);
    int limit = Params.limit(ctx, DEFAULT_LIMIT, MAX_LIMIT);
    String status = ctx.queryParam("status");
    TaskRunStatus s = status == null ? null : TaskRunStatus.parse("status", status);
    ArrayNode runs = Json.array();
    drover.taskRuns(List.of(id), s, limit).forEach(r -> runs.add(ApiBridge.taskRun(r)));
    Reply.json(ctx, runs);
  }

  private long existing(Context ctx) {
    long id = Params.id(ctx, "id");
    if (drover.task(id).isEmpty()) {
      throw ApiError.notFound("id", "no task " + id);
    }
    return id;
  }

  private static ArrayNode array(List<Task> tasks) {
    ArrayNode a = Json.array();
    tasks.forEach(t -> a.add(ApiBridge.task(t)));
    return a;
  }
}
