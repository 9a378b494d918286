package dev.drover.config;

import dev.drover.TextFiles;
import dev.drover.ValidationException;
import dev.drover.engine.command.CommandTemplate;
import dev.drover.frontier.VisitPolicy;
import dev.drover.model.ChildrenRule;
import dev.drover.model.DurationText;
import dev.drover.model.RunHistory;
import dev.drover.model.TaskType;
import dev.drover.model.WorkerGroup;
import dev.drover.store.Store;
import dev.drover.store.Store.UpsertResult;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * A Drover configuration file (YAML): task types, worker groups and limits. The whole file is read
 * and validated before anything is written, so an invalid file changes nothing. Applying it is
 * idempotent: declared items are created or updated to match the file, and nothing else is touched.
 *
 * <pre>
 * limits:
 *   total_workers: 8
 * worker_groups:
 *   vcs: {max_workers: 4}
 * task_types:
 *   load-git:
 *     default_interval: 1d
 *     min_interval: 12h
 *     max_interval: 64d
 *     backoff_factor: 2
 *     group: vcs
 *     command: [git, -C, "{kwargs.path}", fetch]
 *   build:
 *     concurrency_key: owner   # at most max_per_key tasks per kwargs.owner run at once,
 *     max_per_key: 2           # and owners take turns
 *     children_rule: all_succeeded  # a parent's outcome once its children are final
 *     run_history: failures    # keep only the runs that did not succeed (default: all)
 * visit_scheduler:             # see VisitSchedulerConfig
 *   visit_types:
 *     git: {policies: {already_visited_order_by_lag: 49, never_visited_oldest_update_first: 49,
 *                      origins_without_last_update: 2}}
 * </pre>
 */
public record ConfigFile(
    Map<String, String> limits,
    List<WorkerGroup> workerGroups,
    List<TaskType> taskTypes,
    VisitSchedulerConfig visitScheduler) {
  /** The configuration file looked for in a data directory when none is given. */
  public static final String DEFAULT_NAME = "drover.yaml";

  static final List<String> TOP_LEVEL =
      List.of("limits", "worker_groups", "task_types", "visit_scheduler");
  static final List<String> VISIT_SCHEDULER_KEYS = List.of("enabled", "visit_types");
  static final List<String> VISIT_TYPE_KEYS =
      List.of("enabled", "policies", "queue_full_wait", "no_origins_wait");
  static final List<String> SHARE_KEYS = List.of("weight", "tablesample");
  static final List<String> LIMITS = List.of("total_workers");
  static final List<String> GROUP_KEYS = List.of("max_workers");
  static final List<String> TYPE_KEYS =
      List.of(
          "description",
          "cron",
          "time_zone",
          "default_interval",
          "min_interval",
          "max_interval",
          "backoff_factor",
          "max_queue_length",
          "num_retries",
          "retry_delay",
          "lease",
          "timeout",
          "max_workers",
          "group",
          "command",
          "working_dir",
          "env",
          "concurrency_key",
          "max_per_key",
          "children_rule",
          "run_history");

  /** Reads and validates {@code file}; throws a {@link ConfigException} naming line and setting. */
  public static ConfigFile read(Path file) {
    Node root;
    try (Reader reader = new StringReader(TextFiles.read("config", file))) {
      root = new Yaml(new LoaderOptions()).compose(reader);
    } catch (MarkedYAMLException e) {
      String context =
          e.getContextMark() == null
              ? ""
              : " (" + e.getContext() + " from line " + (e.getContextMark().getLine() + 1) + ")";
      throw new ConfigException(
          file, e.getProblemMark().getLine() + 1, "yaml", e.getProblem() + context);
    } catch (YAMLException e) {
      throw new ValidationException("config", file + ": " + e.getMessage());
    } catch (IOException e) {
      throw new ValidationException("config", "cannot read " + file + ": " + e.getMessage());
    }
    if (root == null) {
      return new ConfigFile(Map.of(), List.of(), List.of(), VisitSchedulerConfig.NONE);
    }
    return parse(new YamlNodes(file), root);
  }

  private static ConfigFile parse(YamlNodes yaml, Node root) {
    Map<String, Node> top = yaml.mapping(root, "", TOP_LEVEL);
    Map<String, String> limits = new LinkedHashMap<>();
    if (top.containsKey("limits")) {
      yaml.mapping(top.get("limits"), "limits", LIMITS)
          .forEach(
              (key, node) -> {
                int value = yaml.convert(node, "limits." + key, Integer::parseInt);
                if (value <= 0) {
                  throw yaml.error(node, "limits." + key, "must be positive, got " + value);
                }
                limits.put(key, Integer.toString(value));
              });
    }
    List<WorkerGroup> groups = new ArrayList<>();
    if (top.containsKey("worker_groups")) {
      yaml.mapping(top.get("worker_groups"), "worker_groups", null)
          .forEach(
              (name, node) -> {
                String path = "worker_groups." + name;
                Map<String, Node> g = yaml.mapping(node, path, GROUP_KEYS);
                Node max = g.get("max_workers");
                if (max == null) {
                  throw yaml.error(node, path + ".max_workers", "is required");
                }
                int maxWorkers = yaml.convert(max, path + ".max_workers", Integer::parseInt);
                groups.add(yaml.build(node, g, path, () -> new WorkerGroup(name, maxWorkers)));
              });
    }
    List<TaskType> types = new ArrayList<>();
    if (top.containsKey("task_types")) {
      yaml.mapping(top.get("task_types"), "task_types", null)
          .forEach((name, node) -> types.add(taskType(yaml, name, node, groups)));
    }
    VisitSchedulerConfig visits =
        top.containsKey("visit_scheduler")
            ? visitScheduler(yaml, top.get("visit_scheduler"))
            : VisitSchedulerConfig.NONE;
    return new ConfigFile(limits, groups, types, visits);
  }

  private static VisitSchedulerConfig visitScheduler(YamlNodes yaml, Node node) {
    Map<String, Node> s = yaml.mapping(node, "visit_scheduler", VISIT_SCHEDULER_KEYS);
    Boolean enabled =
        s.containsKey("enabled") ? yaml.bool(s.get("enabled"), "visit_scheduler.enabled") : null;
    Map<String, VisitSchedulerConfig.VisitType> types = new LinkedHashMap<>();
    if (s.containsKey("visit_types")) {
      yaml.mapping(s.get("visit_types"), "visit_scheduler.visit_types", null)
          .forEach(
              (name, typeNode) ->
                  types.put(
                      name, visitType(yaml, "visit_scheduler.visit_types." + name, typeNode)));
    }
    return new VisitSchedulerConfig(enabled, types);
  }

  private static VisitSchedulerConfig.VisitType visitType(YamlNodes yaml, String path, Node node) {
    Map<String, Node> s = yaml.mapping(node, path, VISIT_TYPE_KEYS);
    boolean enabled = !s.containsKey("enabled") || yaml.bool(s.get("enabled"), path + ".enabled");
    List<VisitSchedulerConfig.Share> shares = new ArrayList<>();
    if (s.containsKey("policies")) {
      yaml.mapping(s.get("policies"), path + ".policies", null)
          .forEach(
              (policy, value) -> {
                String at = path + ".policies." + policy;
                VisitPolicy p;
                try {
                  p = VisitPolicy.parse(policy);
                } catch (ValidationException e) {
                  throw yaml.error(value, at, e.getMessage());
                }
                double weight;
                Double sample = null;
                if (value instanceof MappingNode) {
                  Map<String, Node> w = yaml.mapping(value, at, SHARE_KEYS);
                  if (!w.containsKey("weight")) {
                    throw yaml.error(value, at + ".weight", "is required");
                  }
                  weight = yaml.convert(w.get("weight"), at + ".weight", Double::parseDouble);
                  if (w.containsKey("tablesample")) {
                    sample =
                        yaml.convert(
                            w.get("tablesample"), at + ".tablesample", Double::parseDouble);
                  }
                } else {
                  weight = yaml.convert(value, at, Double::parseDouble);
                }
                try {
                  shares.add(new VisitSchedulerConfig.Share(p, weight, sample));
                } catch (ValidationException e) {
                  boolean own = e.field().equals("weight") || e.field().equals("tablesample");
                  throw yaml.error(value, own ? at + "." + e.field() : at, YamlNodes.problemOf(e));
                }
              });
    }
    Duration queueFull =
        s.containsKey("queue_full_wait")
            ? yaml.convert(
                s.get("queue_full_wait"),
                path + ".queue_full_wait",
                t -> DurationText.parse("queue_full_wait", t))
            : null;
    Duration noOrigins =
        s.containsKey("no_origins_wait")
            ? yaml.convert(
                s.get("no_origins_wait"),
                path + ".no_origins_wait",
                t -> DurationText.parse("no_origins_wait", t))
            : null;
    return yaml.build(
        node,
        s,
        path,
        () -> new VisitSchedulerConfig.VisitType(enabled, shares, queueFull, noOrigins));
  }

  private static TaskType taskType(
      YamlNodes yaml, String name, Node node, List<WorkerGroup> groups) {
    String path = "task_types." + name;
    Map<String, Node> s = yaml.mapping(node, path, TYPE_KEYS);
    TaskType.Builder b = TaskType.builder(name);
    String[] zone = {null}; // cron and time_zone may come in either order
    s.forEach(
        (key, value) -> {
          String setting = path + "." + key;
          switch (key) {
            case "description" -> b.description(yaml.scalar(value, setting));
            case "cron" -> b.cron(yaml.scalar(value, setting));
            case "time_zone" -> zone[0] = yaml.scalar(value, setting);
            case "default_interval" ->
                b.defaultInterval(yaml.convert(value, setting, t -> DurationText.parse(key, t)));
            case "min_interval" ->
                b.minInterval(yaml.convert(value, setting, t -> DurationText.parse(key, t)));
            case "max_interval" ->
                b.maxInterval(yaml.convert(value, setting, t -> DurationText.parse(key, t)));
            case "retry_delay" ->
                b.retryDelay(yaml.convert(value, setting, t -> DurationText.parse(key, t)));
            case "lease" -> b.lease(yaml.convert(value, setting, t -> DurationText.parse(key, t)));
            case "timeout" ->
                b.timeout(yaml.convert(value, setting, t -> DurationText.parse(key, t)));
            case "backoff_factor" ->
                b.backoffFactor(yaml.convert(value, setting, Double::parseDouble));
            case "max_queue_length" ->
                b.maxQueueLength(yaml.convert(value, setting, Long::parseLong));
            case "num_retries" -> b.numRetries(yaml.convert(value, setting, Integer::parseInt));
            case "max_workers" -> b.maxWorkers(yaml.convert(value, setting, Integer::parseInt));
            case "group" -> {
              String group = yaml.scalar(value, setting);
              if (groups.stream().noneMatch(g -> g.name().equals(group))) {
                throw yaml.error(
                    value,
                    setting,
                    "unknown worker group '" + group + "' (declare it under worker_groups)");
              }
              b.workerGroup(group);
            }
            case "command" -> b.command(yaml.strings(value, setting));
            case "working_dir" -> b.workingDir(yaml.scalar(value, setting));
            case "children_rule" ->
                b.childrenRule(
                    yaml.convert(value, setting, t -> ChildrenRule.parse("children_rule", t)));
            case "run_history" ->
                b.runHistory(yaml.convert(value, setting, t -> RunHistory.parse("run_history", t)));
            case "env" -> b.env(yaml.stringMap(value, setting));
            case "concurrency_key" -> b.concurrencyKey(yaml.scalar(value, setting));
            case "max_per_key" -> b.maxPerKey(yaml.convert(value, setting, Integer::parseInt));
            default -> throw new IllegalStateException("unhandled setting " + key);
          }
        });
    b.timeZone(zone[0]);
    return yaml.build(node, s, path, () -> CommandTemplate.checked(b.build()));
  }

  /** Creates or updates every declared item in {@code store}; says what changed. */
  public ConfigReport applyTo(Store store) {
    List<String> lines = new ArrayList<>();
    int[] counts = new int[UpsertResult.values().length];
    Map<String, String> storedSettings = store.settingList();
    limits.forEach(
        (key, value) -> {
          String name = "limits." + key;
          UpsertResult r =
              value.equals(storedSettings.get(name))
                  ? UpsertResult.UNCHANGED
                  : storedSettings.containsKey(name) ? UpsertResult.UPDATED : UpsertResult.CREATED;
          store.settingPut(name, value);
          record(lines, counts, "limit " + key + " = " + value, r);
        });
    Map<String, WorkerGroup> storedGroups = new LinkedHashMap<>();
    store.workerGroupList().forEach(g -> storedGroups.put(g.name(), g));
    for (WorkerGroup g : workerGroups) {
      WorkerGroup old = storedGroups.get(g.name());
      UpsertResult r =
          g.equals(old)
              ? UpsertResult.UNCHANGED
              : old == null ? UpsertResult.CREATED : UpsertResult.UPDATED;
      store.workerGroupUpsert(g);
      record(lines, counts, "worker group " + g.name(), r);
    }
    for (TaskType t : taskTypes) {
      record(lines, counts, "task type " + t.name(), store.taskTypeUpsert(t));
    }
    visitScheduler
        .settings()
        .forEach(
            (name, value) -> {
              UpsertResult r =
                  value.equals(storedSettings.get(name))
                      ? UpsertResult.UNCHANGED
                      : storedSettings.containsKey(name)
                          ? UpsertResult.UPDATED
                          : UpsertResult.CREATED;
              store.settingPut(name, value);
              record(lines, counts, "setting " + name, r);
            });
    return new ConfigReport(
        lines,
        counts[UpsertResult.CREATED.ordinal()],
        counts[UpsertResult.UPDATED.ordinal()],
        counts[UpsertResult.UNCHANGED.ordinal()]);
  }

  private static void record(List<String> lines, int[] counts, String what, UpsertResult r) {
    counts[r.ordinal()]++;
    lines.add(what + ": " + r.name().toLowerCase(java.util.Locale.ROOT));
  }
}
