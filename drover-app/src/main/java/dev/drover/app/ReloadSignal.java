package dev.drover.app;

import dev.drover.engine.Runner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * Turns SIGHUP into a configuration reload of a runner, as daemons conventionally do. Java has no
 * public API for signals other than shutdown; {@code sun.misc.Signal} (module jdk.unsupported) is
 * the supported way around it. Where SIGHUP cannot be handled (Windows), reload on file change
 * still works.
 */
final class ReloadSignal {
  private static final Logger log = LoggerFactory.getLogger(ReloadSignal.class);

  private ReloadSignal() {}

  static void install(Runner runner) {
    try {
      Signal.handle(new Signal("HUP"), sig -> {
        log.info("SIGHUP: reloading the configuration");
        runner.requestReload();
      });
    } catch (IllegalArgumentException e) {
      log.debug("SIGHUP cannot be handled here: {}", e.getMessage());
    }
  }
}
