package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code drover completion} prints a script that a real bash sources and completes with. */
class CompletionIT {
  @TempDir Path tmp;

  @Test
  void theScriptCompletesCommandsAndOptionsInBash() throws Exception {
    DroverCli.Result r = DroverCli.in(tmp).run("completion");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    Path script = tmp.resolve("drover-completion.bash");
    Files.writeString(script, r.stdout(), StandardCharsets.UTF_8);

    assertThat(complete(script, "drover ta", 1)).contains("task", "task-type", "task-run");
    assertThat(complete(script, "drover run --da", 2)).contains("--daemon");
  }

  /** What bash offers for the {@code word}-th word of {@code line}, after sourcing the script. */
  private String complete(Path script, String line, int word) throws Exception {
    String bash =
        "source '"
            + script
            + "'; COMP_LINE='"
            + line
            + "'; COMP_WORDS=("
            + line
            + ");"
            + " COMP_CWORD="
            + word
            + "; COMP_POINT=${#COMP_LINE}; _complete_drover;"
            + " printf '%s\\n' \"${COMPREPLY[@]}\"";
    Process p = new ProcessBuilder("bash", "-c", bash).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("bash finished").isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}
