package dev.drover.bench;

import dev.drover.bench.Databases.Kind;

/**
 * The arguments of one of the bench's single-measurement tools: the database first, then optional
 * values by position. Each bad argument gets one line naming it on standard error and exit status
 * 2.
 */
final class ToolArgs {
  private final String tool;
  private final String[] args;

  /**
   * Refuses, with {@code usage}, anything but a database and at most {@code optional} more
   * arguments.
   */
  ToolArgs(String tool, String usage, String[] args, int optional) {
    this.tool = tool;
    this.args = args;
    if (args.length < 1 || args.length > 1 + optional) {
      throw refuse("usage: " + tool + " " + usage);
    }
  }

  /** The first argument as a database kind. */
  Kind kind() {
    try {
      return Kind.parse(args[0]);
    } catch (IllegalArgumentException e) {
      throw refuse(e.getMessage());
    }
  }

  /**
   * Argument {@code index} as a whole number of at least {@code min}, or {@code otherwise} if it is
   * not given.
   */
  int count(int index, String name, int min, int otherwise) {
    if (index >= args.length) {
      return otherwise;
    }
    String text = args[index];
    try {
      int n = Integer.parseInt(text);
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw refuse(name + ": expected a whole number of at least " + min + ", got '" + text + "'");
  }

  /** Argument {@code index}, or null if it is not given. */
  String text(int index) {
    return index < args.length ? args[index] : null;
  }

  /** Prints {@code message} as the tool's one line and exits with status 2. */
  IllegalStateException refuse(String message) {
    System.err.println(tool + ": " + message);
    System.exit(2);
    return new IllegalStateException(message); // not reached
  }
}
