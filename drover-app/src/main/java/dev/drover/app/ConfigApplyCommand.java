package dev.drover.app;

import dev.drover.Drover;
import dev.drover.TextFiles;
import dev.drover.config.ConfigFile;
import dev.drover.config.ConfigReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code drover config apply FILE}: validates the whole file, then creates or updates what it
 * declares.
 */
@Command(
    name = "apply",
    description = {
      "Apply a configuration file (task types, worker groups, limits).",
      "",
      "Every declared item is created or updated to match the file; nothing else is touched. "
          + "An invalid file is refused whole, with its line and setting named."
    })
final class ConfigApplyCommand extends BaseCommand {
  @Parameters(paramLabel = "FILE", description = "The YAML configuration file.")
  Path file;

  @Override
  public Integer call() {
    TextFiles.checkReadable("FILE", file);
    ConfigFile config = ConfigFile.read(file);
    try (Drover drover = root().open(true)) {
      print(out(), config.applyTo(drover.store()));
    }
    return 0;
  }

  static void print(PrintWriter out, ConfigReport report) {
    report.lines().forEach(line -> out.println("  " + line));
    out.println(
        report.created()
            + " created, "
            + report.updated()
            + " updated, "
            + report.unchanged()
            + " unchanged");
  }
}
