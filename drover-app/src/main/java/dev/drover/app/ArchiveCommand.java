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
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
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
          + "object per run; --delete then removes the exported runs and the tasks left "
          + "without runs."
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
    long[] deleted = new long[2];
    long n;
    try (FileOutputStream file = new FileOutputStream(Files.createFile(export).toFile());
        Writer writer = new OutputStreamWriter(file, StandardCharsets.UTF_8)) {
      n =
          drover.archiveEach(
              from,
              to,
              pageSize,
              page -> {
                write(writer, file, page);
                if (delete) {
                  ArchiveDeletion d =
                      drover
                          .store()
                          .archiveDelete(
                              page.stream().map(ArchivableRun::taskId).distinct().toList(),
                              page.stream().map(ArchivableRun::taskRunId).toList());
                  deleted[0] += d.taskRuns();
                  deleted[1] += d.tasks();
                }
              });
    } catch (IOException | UncheckedIOException e) {
      throw new DroverException("cannot write " + export + ": " + e.getMessage(), e);
    }
    out().println("exported " + n + " runs to " + export);
    if (delete) {
      out()
          .println(
              "deleted " + deleted[0] + " runs and " + deleted[1] + " tasks left without runs");
    }
    return 0;
  }

  private static void write(Writer writer, FileOutputStream file, List<ArchivableRun> page) {
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
