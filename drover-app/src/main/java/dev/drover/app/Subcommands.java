package dev.drover.app;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.HelpCommand;

/**
 * The top-level commands of {@code drover}, given to picocli only when a command line needs them.
 *
 * <p>Why: picocli reads the annotations of every command it is given, and of their options and
 * subcommands, before it parses anything. With all of them declared on {@link DroverCommand}, that
 * took about half of the start-up of a short command such as {@code drover status}. So a command
 * line that names one command gets that one alone (with its own subcommands); one that names none
 * or an unknown one, asks the root for help, or runs {@code help} or {@code completion} gets them
 * all, so that help, "did you mean" and the completion script see the whole tree; and a bare {@code
 * --version} gets none.
 */
final class Subcommands {
  /** By name, in the order {@code drover --help} lists them. */
  static final Map<String, Class<?>> BY_NAME = byName();

  /** Commands that look at the whole tree. */
  private static final Set<String> WHOLE_TREE = Set.of("help", "completion");

  /** The root's options that take a value, which may look like a command name. */
  private static final Set<String> ROOT_OPTIONS_WITH_VALUE = Set.of("--data-dir", "--db");

  private static final Set<String> HELP_OPTIONS = Set.of("-h", "--help");
  private static final Set<String> VERSION_OPTIONS = Set.of("-V", "--version");

  private Subcommands() {}

  /** Adds to {@code root} the commands {@code args} may run; call it before configuring root. */
  static void register(CommandLine root, String... args) {
    String named = null;
    boolean help = false;
    boolean version = false;
    for (int i = 0; i < args.length && named == null; i++) {
      String arg = args[i];
      if (arg.equals("--")) {
        break;
      } else if (ROOT_OPTIONS_WITH_VALUE.contains(arg)) {
        i++;
      } else if (arg.startsWith("-")) {
        help |= HELP_OPTIONS.contains(arg);
        version |= VERSION_OPTIONS.contains(arg);
      } else {
        named = arg;
      }
    }
    if (named != null && BY_NAME.containsKey(named) && !WHOLE_TREE.contains(named) && !help) {
      root.addSubcommand(BY_NAME.get(named));
    } else if (named != null || help || !version) {
      BY_NAME.values().forEach(root::addSubcommand);
    }
  }

  private static Map<String, Class<?>> byName() {
    Map<String, Class<?>> commands = new LinkedHashMap<>();
    commands.put("init", InitCommand.class);
    commands.put("demo", DemoCommand.class);
    commands.put("run", RunCommand.class);
    commands.put("serve", ServeCommand.class);
    commands.put("config", ConfigCommand.class);
    commands.put("task-type", TaskTypeCommand.class);
    commands.put("task", TaskCommand.class);
    commands.put("task-run", TaskRunCommand.class);
    commands.put("status", StatusCommand.class);
    commands.put("archive", ArchiveCommand.class);
    commands.put("events", EventsCommand.class);
    commands.put("runners", RunnersCommand.class);
    commands.put("lister", ListerCommand.class);
    commands.put("origin", OriginCommand.class);
    commands.put("visit", VisitCommand.class);
    commands.put("metrics", MetricsCommand.class);
    commands.put("completion", CompletionCommand.class);
    commands.put("help", HelpCommand.class);
    return commands;
  }
}
