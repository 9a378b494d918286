package dev.drover.app;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What every leaf command shares: the root's global options and the output streams. A command reads
 * and validates its input first and opens the store last, so bad input changes nothing.
 */
abstract class BaseCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  DroverCommand root() {
    return (DroverCommand) spec.root().userObject();
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
