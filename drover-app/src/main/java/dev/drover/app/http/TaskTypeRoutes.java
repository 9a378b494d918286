package dev.drover.app.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.app.ApiBridge;
import dev.drover.model.TaskType;
import dev.drover.model.WorkerGroup;
import io.javalin.http.Context;
import java.util.List;

/** Task types: list, get by name, create (the first definition wins, as in the CLI). */
final class TaskTypeRoutes {
  private final Drover drover;

  TaskTypeRoutes(Drover drover) {
    this.drover = drover;
  }

  void list(Context ctx) {
    ArrayNode a = Json.array();
    drover.taskTypes().forEach(t -> a.add(ApiBridge.taskType(t)));
    Reply.json(ctx, a);
  }

  void get(Context ctx) {
    String name = ctx.pathParam("name");
    TaskType t =
        drover
            .taskType(name)
            .orElseThrow(() -> ApiError.notFound("name", "no task type '" + name + "'"));
    Reply.json(ctx, ApiBridge.taskType(t));
  }

  /**
   * {@code POST /task-types}: 201 with the stored type when created; 200 with the stored one,
   * unchanged, when a type of that name exists (change types with the configuration file).
   */
  void create(Context ctx) {
    TaskType type = TaskTypeJson.parse(JsonBody.read(ctx));
    if (type.workerGroup() != null) {
      List<String> groups =
          drover.store().workerGroupList().stream().map(WorkerGroup::name).toList();
      ValidationException.check(
          groups.contains(type.workerGroup()),
          "group",
          "unknown worker group '"
              + type.workerGroup()
              + "' (known: "
              + (groups.isEmpty() ? "none" : String.join(", ", groups))
              + ")");
    }
    boolean created = drover.taskTypeCreate(type);
    TaskType stored = drover.taskType(type.name()).orElse(type);
    Reply.json(ctx, created ? 201 : 200, ApiBridge.taskType(stored));
  }
}
