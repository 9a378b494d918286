package dev.drover.app;

import dev.drover.Drover;
import dev.drover.TextFiles;
import dev.drover.ValidationException;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code drover task add}: one task from options, or a batch from a JSON Lines file. A batch is all
 * or nothing, and a task equal to a stored one is not created twice.
 */
@Command(
    name = "add",
    sortOptions = false,
    description = {
      "Add a task, or a batch of tasks from a JSON Lines file.",
      "",
      "A batch file has one JSON object per line with the keys type, args, kwargs, policy, "
          + "priority, "
          + "next_run and retries. A batch is all or nothing.",
      "",
      "Duplicates: a task equal to a waiting one (same type, arguments, policy and priority, "
          + "and for a oneshot task also the same next_run) is not added twice; the waiting "
          + "task is printed instead."
    })
final class TaskAddCommand extends BaseCommand {
  /** Tasks of a file shown in the table; the rest are counted (--json prints them all). */
  static final int TABLE_ROWS = 100;

  @Option(names = "--type", paramLabel = "TYPE", description = "The task type.")
  String type;

  @Option(
      names = "--args",
      paramLabel = "JSON",
      description = "Positional arguments, a JSON array. Default: [].")
  String args;

  @Option(
      names = "--kwargs",
      paramLabel = "JSON",
      description = "Keyword arguments, a JSON object. Default: {}.")
  String kwargs;

  @Option(
      names = "--policy",
      paramLabel = "POLICY",
      description =
          "recurring or oneshot. Default: recurring if the type has a default interval or a "
              + "cron, else oneshot.")
  String policy;

  @Option(
      names = "--priority",
      paramLabel = "PRIORITY",
      description = "high, normal or low. Default: none.")
  String priority;

  @Option(
      names = "--next-run",
      paramLabel = "TIME",
      description = "When it is first due (ISO-8601, e.g. 2026-01-02T03:04:05Z). Default: now.")
  String nextRun;

  @Option(
      names = "--retries",
      paramLabel = "N",
      description = "Retries it starts with. Default: the type's num_retries.")
  Integer retries;

  @Option(
      names = "--parent",
      paramLabel = "ID",
      description =
          "Add it under this task, in its tree. A parent awaiting its children waits for it too; "
              + "a oneshot parent that is done or failed stays sealed. Other parents are refused.")
  Long parent;

  @Option(
      names = "--file",
      paramLabel = "FILE",
      description = "A JSON Lines file of tasks to add at once, instead of --type.")
  Path file;

  @Option(
      names = "--json",
      description = "Print the added (or already present) tasks as a JSON array.")
  boolean json;

  @Option(
      names = "--allow-unexecutable",
      description =
          "Add tasks even if their type has no command and no built-in handler (for a runner "
              + "of your own, built with the Java API). Without it such tasks are refused.")
  boolean allowUnexecutable;

  @Option(
      names = "--ensure-runner",
      description =
          "Unless a runner of this store is alive, start 'drover run' in the background to run "
              + "the tasks; it exits once nothing is left to do.")
  boolean ensureRunner;

  @Override
  public Integer call() {
    if (file != null) {
      return fromFile();
    }
    NewTask task = fromOptions();
    try (Drover drover = root().open(false)) {
      long before = taskCount(drover);
      NewTask checked =
          new TaskChecks(drover.taskTypes(), allowUnexecutable, null)
              .check(new TaskFile.Line(0, task, policy != null));
      List<NewTask> one = List.of(checked);
      print(drover, before, parent == null ? drover.taskCreate(one) : underParent(drover, one), 1);
      ensureRunner(drover);
    }
    return 0;
  }

  private List<Task> underParent(Drover drover, List<NewTask> tasks) {
    try {
      return drover.taskCreateChildren(parent, tasks);
    } catch (ValidationException e) {
      if (e.field().equals("parent")) {
        throw new ValidationException("--parent", ErrorHandler.problem(e));
      }
      throw e;
    }
  }

  static long taskCount(Drover drover) {
    return drover.statusCounts().stream().mapToLong(c -> c.count()).sum();
  }

  /**
   * Streams the file into the store: each line is parsed and checked as it is read, and written a
   * chunk at a time, all in one transaction, so an invalid line anywhere (or a failure of the
   * database) leaves nothing written. On SQLite that transaction holds the write lock while the
   * file is read (about 2 s per 100,000 tasks on a small machine): a runner on the same data dir
   * waits for it, up to its busy timeout (30 s).
   */
  private Integer fromFile() {
    ValidationException.check(
        parent == null, "--parent", "takes one task from options, not a --file batch");
    if (type != null
        || args != null
        || kwargs != null
        || policy != null
        || priority != null
        || nextRun != null
        || retries != null) {
      throw new ValidationException(
          "--file",
          "cannot be combined with --type, --args, --kwargs, --policy, "
              + "--priority, --next-run or --retries (put them in the file)");
    }
    TextFiles.checkReadable("--file", file);
    try (Drover drover = root().open(false);
        TaskFile reader = TaskFile.open(file, file.toString());
        FileProgress progress =
            new FileProgress(
                err(),
                System.console() != null,
                System::nanoTime,
                n -> String.format(Locale.ROOT, "%,d tasks read and checked", n),
                "; committing at the end")) {
      long before = taskCount(drover);
      TaskChecks checks = new TaskChecks(drover.taskTypes(), allowUnexecutable, file.toString());
      Stored stored = new Stored(json ? Integer.MAX_VALUE : TABLE_ROWS);
      // parsed and checked on a thread of its own while the previous chunk is written; closed
      // (its thread stopped) before the file is
      try (ReadAhead<NewTask> tasks =
          new ReadAhead<>("drover-read-tasks", () -> next(reader, checks))) {
        drover.taskCreateAll(
            tasks,
            chunk -> {
              stored.add(chunk);
              progress.update(stored.inputs);
            });
      }
      progress.close();
      print(drover, before, stored.shown(), stored.distinct.size());
      ensureRunner(drover);
    }
    return 0;
  }

  /** With --ensure-runner, says on stderr which runner will run the tasks (after starting one). */
  private void ensureRunner(Drover drover) {
    if (ensureRunner) {
      err().println(BackgroundRunner.ensure(drover, root()));
      err().flush();
    }
  }

  private static NewTask next(TaskFile reader, TaskChecks checks) {
    TaskFile.Line line = reader.next();
    return line == null ? null : checks.check(line);
  }

  /** Prints the stored tasks (up to {@link #TABLE_ROWS} in a table) and what was added. */
  private void print(Drover drover, long before, List<Task> shown, long distinct) {
    if (json) {
      JsonViews.print(out(), JsonViews.array(shown, JsonViews::task));
      return;
    }
    long added = taskCount(drover) - before;
    Tables.tasks(shown).print(out());
    if (distinct > shown.size()) {
      out().println("(the first " + shown.size() + " shown; 'drover task list' lists them all)");
    }
    out().println(added + " added, " + (distinct - added) + " already present");
  }

  /** A file's stored tasks: how many distinct ones, and the first few kept to print. */
  private static final class Stored {
    final Set<Long> distinct = new HashSet<>();
    final Map<Long, Task> kept = new LinkedHashMap<>();
    final int keep;
    long inputs;

    Stored(int keep) {
      this.keep = keep;
    }

    void add(List<Task> chunk) {
      inputs += chunk.size();
      for (Task t : chunk) {
        if (distinct.add(t.id()) && kept.size() < keep) {
          kept.put(t.id(), t);
        }
      }
    }

    List<Task> shown() {
      return List.copyOf(kept.values());
    }
  }

  private NewTask fromOptions() {
    ValidationException.check(
        type != null, "--type", "give --type TYPE (or --file FILE.jsonl for a batch)");
    TaskArguments arguments;
    try {
      arguments = TaskArguments.parse(args, kwargs);
    } catch (ValidationException e) {
      throw new ValidationException("--" + e.field(), ErrorHandler.problem(e));
    }
    ValidationException.check(
        retries == null || retries >= 0, "--retries", "must not be negative, got " + retries);
    return new NewTask(
        type,
        arguments,
        Inputs.instant("--next-run", nextRun),
        policy == null ? null : TaskPolicy.parse("--policy", policy),
        priority == null ? null : TaskPriority.parse("--priority", priority),
        retries);
  }
}
