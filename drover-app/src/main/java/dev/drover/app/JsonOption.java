package dev.drover.app;

import picocli.CommandLine.Option;

/** The {@code --json} switch of listing, show and status commands. */
final class JsonOption {
  @Option(
      names = "--json",
      description = "Print one JSON document instead of a table (a JSON array for lists).")
  boolean json;
}
