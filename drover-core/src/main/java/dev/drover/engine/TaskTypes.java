package dev.drover.engine;

import dev.drover.model.TaskType;
import dev.drover.model.WorkerGroup;
import dev.drover.store.Store;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The task types and worker group caps as the runner last read them, and which types it can execute
 * (a command, or a handler registered in this process, among the types it was asked to run).
 * Re-read with the housekeeping rather than on every pass; loop thread only.
 */
final class TaskTypes {
  private final Store store;
  private final Set<String> only;
  private final Set<String> handled;
  private Map<String, TaskType> types = Map.of();
  private Map<String, Integer> groupCaps = Map.of();

  TaskTypes(Store store, Set<String> only, Set<String> handled) {
    this.store = store;
    this.only = Set.copyOf(only);
    this.handled = Set.copyOf(handled);
  }

  /** Reads the types and groups again; on failure the previous ones stay. */
  void refresh() {
    Map<String, TaskType> read = new LinkedHashMap<>();
    store.taskTypeList().forEach(t -> read.put(t.name(), t));
    Map<String, Integer> caps = new HashMap<>();
    for (WorkerGroup g : store.workerGroupList()) {
      caps.put(g.name(), g.maxWorkers());
    }
    types = read;
    groupCaps = caps;
  }

  List<TaskType> all() {
    return List.copyOf(types.values());
  }

  Optional<TaskType> get(String name) {
    return Optional.ofNullable(types.get(name));
  }

  List<TaskType> executable() {
    return types.values().stream().filter(this::executable).toList();
  }

  List<String> executableNames() {
    return executable().stream().map(TaskType::name).toList();
  }

  boolean executable(TaskType type) {
    if (!only.isEmpty() && !only.contains(type.name())) {
      return false;
    }
    return type.command() != null || handled.contains(type.name());
  }

  /** The cap of {@code group}, if it is a known worker group. */
  Optional<Integer> groupCap(String group) {
    return Optional.ofNullable(group == null ? null : groupCaps.get(group));
  }

  /** The types of {@code group}. */
  List<TaskType> inGroup(String group) {
    return types.values().stream().filter(t -> group.equals(t.workerGroup())).toList();
  }
}
