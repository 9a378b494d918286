package dev.drover.app;

import dev.drover.TaskHandler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --handlers-jar FILE}: Java handlers from the user's jars, beside the built-in ones. */
final class HandlersJarOption {
  @Option(
      names = HandlerJars.OPTION,
      paramLabel = "FILE",
      description =
          "A jar of Java task handlers: its dev.drover.HandlerProvider services (listed in "
              + "META-INF/services) give handlers by task type. Repeatable.")
  List<Path> jars = new ArrayList<>();

  /** The built-in handlers and the jars' (read from {@code dataDir} as the built-ins are). */
  Map<String, TaskHandler> handlers(Path dataDir) {
    return HandlerJars.withBuiltIns(RunnerSetup.handlers(dataDir), jars);
  }
}
