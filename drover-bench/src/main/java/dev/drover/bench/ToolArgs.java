package dev.drover.bench;

import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import dev.drover.store.StoreLocation;

/**
 * The argument handling the bench's single-measurement tools share: each bad argument gets one line
 * naming it on standard error and exit status 2.
 */
final class ToolArgs {
  private final String tool;

  ToolArgs(String tool) {
    this.tool = tool;
  }

  /** {@code text} as a database kind, or a one-line refusal. */
  Kind kind(String text) {
    try {
      return Kind.parse(text);
    } catch (IllegalArgumentException e) {
      throw refuse(e.getMessage());
    }
  }

  /** {@code text} as a whole number of at least {@code min}, or a one-line refusal naming it. */
  int count(String name, String text, int min) {
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

  /** Prints {@code message} as the tool's one line and exits with status 2. */
  IllegalStateException refuse(String message) {
    System.err.println(tool + ": " + message);
    System.exit(2);
    return new IllegalStateException(message); // not reached
  }

  /** Where Drover's store for {@code db} is. */
  static StoreLocation location(BenchDb db) {
    return db.kind() == Kind.SQLITE
        ? StoreLocation.dataDir(db.dir())
        : StoreLocation.postgres(db.jdbcUrl());
  }
}
