package dev.drover.app;

import picocli.AutoComplete;
import picocli.CommandLine.Command;

/**
 * {@code drover completion}: prints a completion script for bash and zsh, generated from the
 * commands and options themselves, so it never lags behind them.
 */
@Command(
    name = "completion",
    description = {
      "Print a shell completion script for bash and zsh (zsh through bashcompinit).",
      "Install it for this shell with: source <(./drover completion)",
      "or for every bash session with: ./drover completion > ~/.local/share/bash-completion/"
          + "completions/drover"
    })
final class CompletionCommand extends BaseCommand {
  @Override
  public Integer call() {
    out().print(AutoComplete.bash("drover", spec.root().commandLine()));
    out().flush();
    return 0;
  }
}
