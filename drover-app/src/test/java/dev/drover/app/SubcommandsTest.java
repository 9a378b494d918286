package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** A command line gets the commands it may run: the one it names, or all when it needs the tree. */
class SubcommandsTest {
  @Test
  void namesMatchTheCommandsOwnNames() {
    for (Map.Entry<String, Class<?>> e : Subcommands.BY_NAME.entrySet()) {
      assertThat(e.getValue().getAnnotation(Command.class).name()).isEqualTo(e.getKey());
    }
  }

  @Test
  void aNamedCommandComesAlone() {
    assertThat(registered("status")).containsExactly("status");
    assertThat(registered("--verbose", "task", "list", "--json")).containsExactly("task");
    // --data-dir takes a value, even one that looks like a command.
    assertThat(registered("--data-dir", "status", "task", "list")).containsExactly("task");
    assertThat(registered("--db=jdbc:postgresql://h/d", "run")).containsExactly("run");
    assertThat(registered("task", "--help")).containsExactly("task");
  }

  @Test
  void helpCompletionAndUnknownCommandsGetTheWholeTree() {
    String[] all = Subcommands.BY_NAME.keySet().toArray(String[]::new);
    assertThat(registered()).containsExactly(all);
    assertThat(registered("--help")).containsExactly(all);
    assertThat(registered("-h", "status")).containsExactly(all);
    assertThat(registered("help", "status")).containsExactly(all);
    assertThat(registered("completion")).containsExactly(all);
    assertThat(registered("stat")).containsExactly(all);
    assertThat(registered("--data-dir", "d")).containsExactly(all);
  }

  @Test
  void aBareVersionGetsNone() {
    assertThat(registered("--version")).isEmpty();
    assertThat(registered("--verbose", "-V")).isEmpty();
  }

  private static String[] registered(String... args) {
    CommandLine root = new CommandLine(new DroverCommand());
    Subcommands.register(root, args);
    return root.getSubcommands().keySet().toArray(String[]::new);
  }
}
