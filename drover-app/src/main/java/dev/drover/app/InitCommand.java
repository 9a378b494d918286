package dev.drover.app;

import dev.drover.Drover;
import dev.drover.config.ConfigFile;
import dev.drover.config.ConfigReport;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code drover init}: creates or migrates the store and applies the configuration file if there is
 * one.
 */
@Command(
    name = "init",
    description = {
      "Create the store, or bring its schema up to date, and apply the configuration file.",
      "",
      "The configuration file is --config FILE, or drover.yaml in the data directory if it exists. "
          + "Safe to run again."
    })
final class InitCommand extends BaseCommand {
  @Mixin ConfigFileOption configOption;

  @Override
  public Integer call() {
    Path configPath = configOption.file(root());
    ConfigFile config = configPath == null ? null : ConfigFile.read(configPath);
    boolean existed = root().storeExists();
    try (Drover drover = root().open(true)) {
      String where = root().location().describe();
      out()
          .println(
              existed
                  ? "store at " + where + " is ready (schema up to date)"
                  : "created a new store at " + where);
      if (config == null) {
        out()
            .println(
                "no configuration file (looked for "
                    + ConfigFileOption.defaultFile(root())
                    + "); add task types with 'drover task-type add' or 'drover config apply "
                    + "FILE'");
      } else {
        ConfigReport report = config.applyTo(drover.store());
        out().println("applied " + configPath + ":");
        ConfigApplyCommand.print(out(), report);
      }
    }
    return 0;
  }
}
