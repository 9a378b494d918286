package dev.drover.app;

import dev.drover.Drover;
import dev.drover.engine.Runner;
import dev.drover.engine.RunnerBuilder;
import dev.drover.engine.RunnerOptions;
import dev.drover.engine.RunnerStats;
import dev.drover.model.ChildrenRule;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;

/**
 * {@code drover demo archive}: the workflow example, offline. Writes a few linked HTML pages in the
 * data directory, adds a crawl, and runs it in process: the crawl walks the pages and spawns a
 * snapshot per page, each snapshot spawns one result per extractor, and the crawl is sealed once
 * every result and snapshot is done. Then it prints the tree with its counts. Run it again: each
 * run archives the site once more, in a new tree.
 */
@Command(
    name = "archive",
    description = {
      "Run the workflow example: archive a small local website as a tree of tasks.",
      "",
      "Writes five linked HTML pages under demo-archive/site/ in the data directory, adds an "
          + "archive-crawl task, and runs it in process: the crawl walks the pages (no network) "
          + "and spawns an archive-snapshot per page, each snapshot spawns an archive-result per "
          + "extractor (title, text, links, sha256), and the crawl is sealed when all are done. "
          + "Then it prints the tree with its counts."
    })
final class DemoArchiveCommand extends BaseCommand {
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);
  private static final long WATCH_MS = 100;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = out();
    try (Drover drover = root().open(true)) {
      Path site = ArchiveSite.create(root().dataDir());
      out.println("site: " + ArchiveSite.pageCount() + " linked pages in " + site);
      for (TaskType type : types()) {
        drover.taskTypeCreate(type);
      }
      Task crawl =
          drover
              .taskCreate(
                  List.of(
                      NewTask.oneshot(
                          ArchiveHandlers.CRAWL,
                          TaskArguments.of(List.of(ArchiveSite.START), null))))
              .get(0);
      out.println("added crawl task " + crawl.id() + "; running it in process...");
      RunnerStats stats = runUntilSealed(drover.store(), crawl.id());
      out.println(
          "  "
              + stats.claimed()
              + " runs: "
              + stats.eventful()
              + " eventful, "
              + stats.failed()
              + " failed");
      out.println();
      Task sealed = drover.task(crawl.id()).orElseThrow();
      TaskTreeCommand.printTree(
          drover, out, sealed, drover.taskFamily(crawl.id()).orElseThrow(), 10);
      out.println();
      out.println(
          "each result is in its run's metadata: drover task-run list --task ID --json; "
              + "the page copies are under "
              + RunnerSetup.runsDir(root()).resolve(ArchiveHandlers.SNAPSHOT));
    }
    return 0;
  }

  static List<TaskType> types() {
    return List.of(
        TaskType.builder(ArchiveHandlers.CRAWL)
            .description("walks the demo site, spawns a snapshot per page")
            .childrenRule(ChildrenRule.ALL_SUCCEEDED)
            .maxWorkers(1)
            .build(),
        TaskType.builder(ArchiveHandlers.SNAPSHOT)
            .description("keeps a copy of one page, spawns a result per extractor")
            .maxWorkers(2)
            .build(),
        TaskType.builder(ArchiveHandlers.RESULT)
            .description("one extractor (title, text, links, sha256) on one page")
            .maxWorkers(4)
            .build());
  }

  /** True once the crawl is sealed: done, or failed for good. */
  private static boolean sealed(Store store, long crawl) {
    TaskStatus s = store.taskGet(List.of(crawl)).get(0).status();
    return s == TaskStatus.COMPLETED || s == TaskStatus.DISABLED;
  }

  /** Runs the archive types in process until the crawl is sealed (or failed for good). */
  private RunnerStats runUntilSealed(Store store, long crawl) throws InterruptedException {
    RunnerOptions options =
        RunnerOptions.defaults(RunnerSetup.runsDir(root()))
            .withTotalWorkers(RunnerSetup.totalWorkers(null, store))
            .withTypes(
                Set.of(ArchiveHandlers.CRAWL, ArchiveHandlers.SNAPSHOT, ArchiveHandlers.RESULT));
    Runner runner =
        new RunnerBuilder(store, options.runsDir())
            .options(options)
            .handlers(RunnerSetup.handlers(root().dataDir()))
            .commands(RunnerSetup.commands())
            .build();
    return RunUntil.done(
        runner, () -> sealed(store, crawl), WATCH_MS, STOP_GRACE, "drover-demo-archive-watch");
  }
}
