package dev.drover.app;

import picocli.CommandLine.Command;

/** {@code drover config}: the group of configuration file commands. */
@Command(
    name = "config",
    description = "Apply configuration files (task types, worker groups, limits).",
    subcommands = ConfigApplyCommand.class)
final class ConfigCommand {}
