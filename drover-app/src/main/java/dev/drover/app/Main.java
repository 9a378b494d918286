package dev.drover.app;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * The {@code drover} command: parses the command line, runs one command and exits with its code.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    if (java.util.Arrays.asList(args).contains("--verbose")) {
      // Before the first logger exists: with --verbose, Drover's debug lines (the stack trace of
      // a lost database among them) are shown too.
      System.setProperty("org.slf4j.simpleLogger.log.dev.drover", "debug");
    }
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code: 0 done, 1 failed, 2 bad input. */
  public static int run(String... args) {
    return run(Shell.system(), args);
  }

  /**
   * As {@link #run(String...)}, as if started from {@code shell}'s working directory with its
   * environment and streams; it never exits the JVM, so tests run commands in process.
   */
  static int run(Shell shell, String... args) {
    ErrorHandler errors = new ErrorHandler();
    CommandLine cli = new CommandLine(new DroverCommand(shell));
    // Before the settings below, which apply to the subcommands already added.
    Subcommands.register(cli, args);
    cli.registerConverter(Path.class, shell::path)
        .setOut(utf8(shell.out()))
        .setErr(utf8(shell.err()))
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setUsageHelpAutoWidth(true)
        .setParameterExceptionHandler(errors)
        .setExecutionExceptionHandler(errors);
    int code = cli.execute(args);
    cli.getOut().flush();
    cli.getErr().flush();
    return code;
  }

  // The platform charset may be ASCII (LANG unset in CI); Drover always speaks UTF-8.
  private static PrintWriter utf8(java.io.PrintStream stream) {
    return new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), true);
  }
}
