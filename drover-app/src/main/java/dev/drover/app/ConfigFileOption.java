package dev.drover.app;

import dev.drover.TextFiles;
import dev.drover.config.ConfigFile;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --config} option of the commands that read a configuration file ({@code init} and
 * {@code run}); other commands do not offer it, so it is never accepted and then ignored.
 */
final class ConfigFileOption {
  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Configuration file (YAML) to apply. Default: drover.yaml in the data directory, if it "
              + "exists.")
  private Path config;

  /** {@code --config}, or drover.yaml in the data directory; null if neither exists. */
  Path file(DroverCommand root) {
    if (config != null) {
      TextFiles.checkReadable("--config", config);
      return config;
    }
    Path inDataDir = defaultFile(root);
    return Files.isRegularFile(inDataDir) ? inDataDir : null;
  }

  /** Where the configuration file is looked for when --config is not given. */
  static Path defaultFile(DroverCommand root) {
    return root.dataDir().resolve(ConfigFile.DEFAULT_NAME);
  }
}
