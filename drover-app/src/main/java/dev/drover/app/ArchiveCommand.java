package dev.drover.app;

import dev.drover.Drover;
import dev.drover.DroverException;
import dev.drover.ValidationException;
import dev.drover.model.ArchivableRun;
import dev.drover.store.Store.ArchiveDeletion;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code drover archive}: exports the runs of finished tasks in a time window to JSON Lines and,
 * with {@code --delete}, removes what was exported. Each page is written and synced to disk before
 * it is deleted, so a crash never loses a run that is not in the file.
 */
@Command(
    name = "archive",
    sortOptions = false,
    description = {
      "Export (and optionally delete) the runs of finished tasks in a time window.",
      "",
      "Finished tasks are oneshot tasks that completed or were disabled, and disabled "
          + "recurring tasks; "
          + "a run's time is when it started (or was scheduled, if it never started), and the "
          + "window is "
          + "[--after, --before). Without --export the runs are only counted. --export writes "
          + "one JSON "
          + "object per run (no file when nothing matches); --delete then removes the exported "
          + "runs, their output directories on disk, and the tasks left without runs.",
      "",
      "As in swh-scheduler, a recurring task counts as finished once it is disabled: "
          + "archive --delete removes a disabled recurring task with its runs. Enable it again "
          + "(task enable ID) before archiving to keep it."
    })
final class ArchiveCommand extends BaseCommand {
  @Option(
      names = "--after",
      required = true,
      paramLabel = "TIME",
      description = "Start of the window, inclusive (ISO-8601).")
  String after;

  @Option(
      names = "--before",
      required = true,
      paramLabel = "TIME",
      description = "End of the window, exclusive (ISO-8601).")
  String before;

  @Option(
      names = "--export",
      paramLabel = "FILE",
      description = "Write the runs to FILE (JSON Lines); it must not exist yet.")
  Path export;

  @Option(
      names = "--delete",
      description = "Delete the exported runs, and the tasks left without runs. Needs --export.")
  boolean delete;

  @Option(
      names = "--page-size",
      paramLabel = "N",
      description = "Runs read (and deleted) per transaction. Default: 1000.")
  int pageSize = 1000;

  @Override
  public Integer call() {
    Instant from = Inputs.instant("--after", after);
    Instant to = Inputs.instant("--before", before);
    ValidationException.check(
        !from.isAfter(to), "--after", "--after " + after + " is later than --before " + before);
    ValidationException.check(pageSize > 0, "--page-size", "must be positive, got " + pageSize);
    ValidationException.check(
        !delete || export != null,
        "--delete",
        "needs --export FILE, so nothing is deleted without a copy");
    if (export != null) {
      ValidationException.check(
          !Files.exists(export), "--export", "'" + export + "' exists; refusing to overwrite it");
      Path parent = export.toAbsolutePath().getParent();
      ValidationException.check(
          parent != null && Files.isDirectory(parent), "--export", "no directory '" + parent + "'");
    }
    try (Drover drover = root().open(false)) {
      if (export == null) {
        long n = drover.archiveEach(from, to, pageSize, page -> {});
        out()
            .println(
                n
                    + " archivable runs between "
                    + Tables.time(from)
                    + " and "
                    + Tables.time(to)
                    + " (use --export FILE to write them, with --delete to remove them)");
        return 0;
      }
      return exportTo(drover, from, to);
    }
  }

  private int exportTo(Drover drover, Instant from, Instant to) {
    long[] deleted = new long[3];
    Path runsDir = RunnerSetup.runsDir(root());
    long n;
    // The file is created with the first page, so an export that matches nothing leaves no file.
    try (LazyFile file = new LazyFile(export)) {
      n =
          drover.archiveEach(
              from,
              to,
              pageSize,
              page -> {
                if (page.isEmpty()) {
                  return;
                }
                write(file.open(), page);
                if (delete) {
                  ArchiveDeletion d =
                      drover
                          .store()
                          .archiveDelete(
                              page.stream().map(ArchivableRun::taskId).distinct().toList(),
                              page.stream().map(ArchivableRun::taskRunId).toList());
                  deleted[0] += d.taskRuns();
                  deleted[1] += d.tasks();
                  deleted[2] += deleteRunDirs(runsDir, page);
                }
              });
    } catch (IOException | UncheckedIOException e) {
      throw new DroverException("cannot write " + export + ": " + e.getMessage(), e);
    }
    if (n == 0) {
      out()
          .println(
              "no archivable runs between "
                  + Tables.time(from)
                  + " and "
                  + Tables.time(to)
                  + "; "
                  + export
                  + " not created");
      return 0;
    }
    out().println("exported " + n + " runs to " + export);
    if (delete) {
      out()
          .println(
              "deleted "
                  + deleted[0]
                  + " runs and "
                  + deleted[1]
                  + " tasks left without runs, and "
                  + deleted[2]
                  + " run directories under "
                  + runsDir);
    }
    return 0;
  }

  /**
   * Removes the output directories ({@code RUNS_DIR/TYPE/BACKEND_ID}) of runs whose rows were just
   * deleted, and a type's directory once it is empty; returns how many run directories went.
   */
  private static long deleteRunDirs(Path runsDir, List<ArchivableRun> page) {
    long removed = 0;
    for (ArchivableRun run : page) {
      if (run.backendId() == null || run.type() == null) {
        continue;
      }
      Path typeDir = runsDir.resolve(run.type());
      Path dir = typeDir.resolve(run.backendId()).normalize();
      if (!dir.startsWith(typeDir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      try (Stream<Path> tree = Files.walk(dir)) {
        for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
        removed++;
        try (Stream<Path> left = Files.list(typeDir)) {
          if (left.findAny().isEmpty()) {
            Files.delete(typeDir);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return removed;
  }

  /** The export file, created (never overwritten) when the first page is written. */
  private static final class LazyFile implements AutoCloseable {
    private final Path path;
    private FileOutputStream file;
    private Writer writer;

    LazyFile(Path path) {
      this.path = path;
    }

    LazyFile open() {
      if (file == null) {
        try {
          file = new FileOutputStream(Files.createFile(path).toFile());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        writer = new OutputStreamWriter(file, StandardCharsets.UTF_8);
      }
      return this;
    }

    @Override
    public void close() throws IOException {
      if (writer != null) {
        writer.close();
      }
    }
  }

  private static void write(LazyFile out, List<ArchivableRun> page) {
    Writer writer = out.writer;
    FileOutputStream file = out.file;
    try {
      for (ArchivableRun run : page) {
        writer.write(JsonViews.compact(JsonViews.archivedRun(run)));
        writer.write('\n');
      }
      writer.flush();
      file.getFD().sync();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
