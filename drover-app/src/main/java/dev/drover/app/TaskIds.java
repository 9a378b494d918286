package dev.drover.app;

import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.model.Task;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Checks that every task id given on the command line names a stored task. */
final class TaskIds {
  private TaskIds() {}

  /** The stored tasks of {@code ids}; refuses the whole list if any is missing. */
  static List<Task> existing(Drover drover, List<Long> ids) {
    List<Task> found = drover.store().taskGet(ids);
    Set<Long> foundIds = found.stream().map(Task::id).collect(Collectors.toSet());
    List<String> missing =
        ids.stream().filter(id -> !foundIds.contains(id)).map(String::valueOf).distinct().toList();
    if (!missing.isEmpty()) {
      throw new ValidationException(
          "ID", "no task " + String.join(", ", missing) + "; nothing was changed");
    }
    return found;
  }
}
