package dev.drover.app;

import dev.drover.DroverException;
import dev.drover.ValidationException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns every failure into one line on stderr and an exit code: 2 for bad input (a {@link
 * ValidationException} or a command line picocli cannot parse), 1 for anything else. Stack traces
 * are shown only with {@code --verbose}.
 */
final class ErrorHandler implements IParameterExceptionHandler, IExecutionExceptionHandler {
  /** The command did not finish: the database, a file or the program failed. */
  static final int FAILED = 1;

  /** The input was wrong; nothing was changed. */
  static final int BAD_INPUT = 2;

  @Override
  public int handleParseException(ParameterException e, String[] args) {
    CommandLine cli = e.getCommandLine();
    String help = cli.getCommandSpec().qualifiedName() + " --help";
    cli.getErr().println("drover: " + oneLine(e.getMessage()) + " (see '" + help + "')");
    if (verbose(args)) {
      e.printStackTrace(cli.getErr());
    }
    return BAD_INPUT;
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine cli, ParseResult parsed) {
    PrintWriter err = cli.getErr();
    int code;
    if (e instanceof ValidationException) {
      err.println("drover: " + oneLine(e.getMessage()));
      code = BAD_INPUT;
    } else if (e instanceof DroverException) {
      err.println("drover: " + oneLine(e.getMessage()));
      code = FAILED;
    } else {
      err.println(
          "drover: unexpected "
              + e.getClass().getSimpleName()
              + ": "
              + oneLine(String.valueOf(e.getMessage()))
              + (isVerbose(cli) ? "" : " (run with --verbose for details)"));
      code = FAILED;
    }
    if (isVerbose(cli)) {
      e.printStackTrace(err);
    }
    return code;
  }

  /** The message of {@code e} without the field prefix that {@link ValidationException} adds. */
  static String problem(ValidationException e) {
    String prefix = e.field() + ": ";
    String message = e.getMessage();
    return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
  }

  private static String oneLine(String message) {
    return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  private static boolean isVerbose(CommandLine cli) {
    return cli.getCommandSpec().root().userObject() instanceof DroverCommand root && root.verbose();
  }

  // Parsing failed, so the option may not have been bound yet; look at the raw arguments.
  private static boolean verbose(String[] args) {
    for (String arg : args) {
      if (arg.equals("--verbose")) {
        return true;
      }
    }
    return false;
  }
}
