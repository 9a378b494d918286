package dev.drover.app.http;

import dev.drover.Drover;
import dev.drover.app.ApiBridge;
import dev.drover.model.Task;
import dev.drover.model.TaskFamily;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The status words of a page of tasks, as the CLI's tables print them ({@code failed} for a task
 * that failed for good, {@code disabled} for one an operator disabled), with one query for the
 * whole page.
 */
final class StatusWords {
  private StatusWords() {}

  static Map<Long, String> of(Drover drover, List<Task> tasks) {
    Map<Long, TaskFamily> families = new HashMap<>();
    if (tasks.isEmpty()) {
      return Map.of();
    }
    drover
        .store()
        .taskFamily(tasks.stream().map(Task::id).toList())
        .forEach(f -> families.put(f.id(), f));
    Instant now = drover.now();
    Map<Long, String> words = new HashMap<>();
    tasks.forEach(t -> words.put(t.id(), ApiBridge.statusWord(t, families.get(t.id()), now)));
    return words;
  }
}
