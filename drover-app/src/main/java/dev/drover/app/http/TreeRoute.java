package dev.drover.app.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.app.ApiBridge;
import dev.drover.model.Task;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskStatus;
import io.javalin.http.Context;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /tasks/{id}/tree?after=ID&limit=N}: the task with its family, the counts of its whole
 * tree per status (from its root, as {@code task tree} prints them), and its direct children as a
 * keyset page: {@code items} in id order after {@code after}, {@code next} to pass as {@code after}
 * for the next page, or null. Deeper tasks are each child's own tree.
 */
final class TreeRoute {
  private final Drover drover;

  TreeRoute(Drover drover) {
    this.drover = drover;
  }

  void show(Context ctx) {
    long id = Params.id(ctx, "id");
    Long after = Params.whole(ctx, "after", 0);
    int limit = Params.limit(ctx, TaskRoutes.DEFAULT_LIMIT, TaskRoutes.MAX_LIMIT);
    Task task = drover.task(id).orElseThrow(() -> ApiError.notFound("id", "no task " + id));
    TaskFamily family =
        drover.taskFamily(id).orElseThrow(() -> ApiError.notFound("id", "no task " + id));
    List<Task> children = drover.taskChildren(id, after == null ? 0 : after, limit + 1);
    boolean more = children.size() > limit;
    children = more ? children.subList(0, limit) : children;

    ObjectNode body = Json.object();
    body.set("task", ApiBridge.task(task, family));
    ObjectNode counts = body.putObject("counts");
    Map<TaskStatus, Long> byStatus = drover.treeCounts(family.root());
    byStatus.forEach((s, n) -> counts.put(s.dbName(), n));
    body.set("items", items(children));
    if (more) {
      body.put("next", children.get(children.size() - 1).id());
    } else {
      body.putNull("next");
    }
    Reply.json(ctx, body);
  }

  /** The children, each with its own family: its children and whether it failed for good. */
  private ArrayNode items(List<Task> children) {
    Map<Long, TaskFamily> families = new HashMap<>();
    drover
        .store()
        .taskFamily(children.stream().map(Task::id).toList())
        .forEach(f -> families.put(f.id(), f));
    ArrayNode items = Json.array();
    for (Task child : children) {
      TaskFamily f = families.get(child.id());
      // A child deleted between the two reads is left out rather than shown without its family.
      if (f != null) {
        items.add(ApiBridge.task(child, f));
      }
    }
    return items;
  }
}
