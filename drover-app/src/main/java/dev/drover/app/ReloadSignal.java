package dev.drover.app;

import dev.drover.engine.Runner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Turns SIGHUP into a configuration reload of a runner, as daemons conventionally do. Java has no
 * public API for signals other than shutdown; {@code sun.misc.Signal} (module jdk.unsupported) is
 * the supported way around it. Where SIGHUP cannot be handled (Windows), reload on file change
 * still works.
 */
final class ReloadSignal {
  private static final Logger log = LoggerFactory.getLogger(ReloadSignal.class);

  static final String IGNORED =
      "SIGHUP is ignored by this process (started under nohup?), so it does not"
          + " reload the configuration; a change to the file still does";

  private ReloadSignal() {}

  static void install(Runner runner) {
    try {
      SignalHandler previous =
          Signal.handle(
              new Signal("HUP"),
              sig -> {
                log.info("SIGHUP: reloading the configuration");
                runner.requestReload();
              });
      if (previous == SignalHandler.SIG_IGN) {
        // The JVM leaves a signal ignored at its start (e.g. under nohup) ignored.
        log.info(IGNORED);
      }
    } catch (IllegalArgumentException e) {
      log.debug("SIGHUP cannot be handled here: {}", e.getMessage());
    }
  }
}
