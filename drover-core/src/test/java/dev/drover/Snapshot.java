package dev.drover;

import dev.drover.model.TaskQuery;
import java.util.List;

/** Everything a store holds, as text, so a test can tell whether anything changed. */
final class Snapshot {
  private Snapshot() {}

  static String of(Drover d) {
    return String.join(
        "\n",
        d.taskTypes().toString(),
        d.store().workerGroupList().toString(),
        d.store().settingList().toString(),
        d.taskSearch(TaskQuery.all()).toString(),
        d.taskRuns(List.of(), null, Integer.MAX_VALUE).toString());
  }
}
