package dev.drover.app;

import dev.drover.DroverException;
import dev.drover.ValidationException;
import dev.drover.store.DiskFull;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

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
    cli.getErr()
        .println("drover: " + oneLine(e.getMessage()) + suggestion(e) + " (see '" + help + "')");
    if (verbose(args)) {
      e.printStackTrace(cli.getErr());
    }
    return BAD_INPUT;
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine cli, ParseResult parsed) {
    PrintWriter err = cli.getErr();
    int code;
    String diskFull = diskFull(e, cli);
    if (diskFull != null) {
      err.println(
          "drover: "
              + diskFull
              + "; free some space and run the command again (what failed was not written)");
      code = FAILED;
    } else if (e instanceof ValidationException) {
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

  /** The one line for a full disk under the store, or null if that is not what failed. */
  private static String diskFull(Exception e, CommandLine cli) {
    if (!(cli.getCommandSpec().root().userObject() instanceof DroverCommand root)) {
      return null;
    }
    String where;
    try {
      where = root.location().describe();
    } catch (RuntimeException unknown) {
      where = "the store";
    }
    return DiskFull.describe(e, where);
  }

  /** "; did you mean 'task'?" for a mistyped command or option, else empty. */
  private static String suggestion(ParameterException e) {
    if (!(e instanceof UnmatchedArgumentException unmatched)) {
      return "";
    }
    // picocli orders them most similar first; the first is the likely intent, the others noise
    List<String> similar = unmatched.getSuggestions();
    return similar.isEmpty() ? "" : "; did you mean '" + similar.get(0) + "'?";
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
