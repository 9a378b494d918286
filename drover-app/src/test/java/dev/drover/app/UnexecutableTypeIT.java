package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.store.StoreLocation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14 item 3: a task type with no command and no built-in handler is never executed by {@code
 * drover run}. Adding its tasks is refused unless asked for, and status and run say so.
 */
class UnexecutableTypeIT {
  @TempDir Path tmp;

  DroverCli.Result drover(Object... args) {
    Object[] all = new Object[args.length + 2];
    all[0] = "--data-dir";
    all[1] = tmp.resolve("data");
    System.arraycopy(args, 0, all, 2, args.length);
    return DroverCli.in(tmp).run(all);
  }

  @BeforeEach
  void seed() {
    Fixtures.seed(StoreLocation.dataDir(tmp.resolve("data")), tmp);
    drover("task-type", "add", "--name", "manual", "--default-interval", "1h").ok();
  }

  @Test
  void addingItsTaskIsRefusedInOneLineAndChangesNothing() {
    List<String> before = DbSnapshot.ofDataDir(tmp.resolve("data"));
    DroverCli.Result r = drover("task", "add", "--type", "manual");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
    assertThat(r.stderrLines())
        .singleElement()
        .asString()
        .startsWith("drover: --type: ")
        .contains("'manual'", "no command", "--allow-unexecutable");
    assertThat(DbSnapshot.ofDataDir(tmp.resolve("data"))).isEqualTo(before);

    Path file = Fixtures.write(tmp.resolve("t.jsonl"), "{\"type\": \"manual\"}\n");
    DroverCli.Result batch = drover("task", "add", "--file", file);
    assertThat(batch.exitCode()).as(batch.toString()).isEqualTo(2);
    assertThat(batch.stderrLines()).singleElement().asString().contains("t.jsonl:1", "'manual'");
    assertThat(DbSnapshot.ofDataDir(tmp.resolve("data"))).isEqualTo(before);
  }

  @Test
  void itIsAddedWhenAskedForAndStatusAndRunWarn() {
    drover("task", "add", "--type", "manual", "--allow-unexecutable").ok();

    // Status cannot see the jars of a runner in another process: it says what it knows, no more.
    assertThat(drover("status").ok().stdout())
        .contains("warning: task type manual has no command and no built-in handler")
        .contains("only a runner given a --handlers-jar that handles it executes its tasks")
        .doesNotContain("never");
    JsonNode status = drover("status", "--json").ok().json();
    assertThat(status)
        .filteredOn(t -> t.get("type").asText().equals("manual"))
        .singleElement()
        .satisfies(t -> assertThat(t.get("command_or_built_in_handler").asBoolean()).isFalse());
    assertThat(status)
        .filteredOn(t -> t.get("type").asText().equals("load-git"))
        .singleElement()
        .satisfies(t -> assertThat(t.get("command_or_built_in_handler").asBoolean()).isTrue());
  }

  @Test
  void runWarnsAtStartNamingTheType(@TempDir Path other) {
    DroverCli cli = DroverCli.in(other);
    Path data = other.resolve("data");
    cli.run("--data-dir", data, "init").ok();
    cli.run("--data-dir", data, "task-type", "add", "--name", "manual", "--default-interval", "1h")
        .ok();
    cli.run("--data-dir", data, "task-type", "add", "--name", "echo", "--command", "true").ok();
    DroverCli.Result run = cli.run("--data-dir", data, "run").ok();
    assertThat(run.stderr())
        .contains("task type manual has no command and no built-in handler")
        .doesNotContain("echo has no command");
  }
}
