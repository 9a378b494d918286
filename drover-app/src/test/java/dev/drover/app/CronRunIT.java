package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.model.CronSchedule;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cron task type from the command line to the runner: declared with {@code task-type add --cron}
 * and in a config file, shown by {@code task-type show} and {@code list}, its task run by {@code
 * drover run} and rescheduled to the cron's first fire time after the run ended. The CLI reads the
 * system clock, so the test asserts against the times the store recorded, never against the clock.
 */
class CronRunIT {
  @TempDir Path tmp;

  private DroverCli.Result drover(Object... args) {
    Object[] all = new Object[args.length + 2];
    all[0] = "--data-dir";
    all[1] = tmp.resolve("data");
    System.arraycopy(args, 0, all, 2, args.length);
    return DroverCli.in(tmp).run(all);
  }

  @Test
  void runRunsACronTaskAndSchedulesItsNextFireTime() {
    drover(
            "task-type",
            "add",
            "--name",
            "nightly",
            "--cron",
            "30 2 * * *",
            "--time-zone",
            "Europe/Paris",
            "--command",
            "sh",
            "--command",
            "-c",
            "--command",
            "echo '{{\"status\": \"uneventful\"}}'") // braces doubled: not placeholders
        .ok();
    JsonNode type = drover("task-type", "show", "nightly", "--json").ok().json();
    assertThat(type.get("cron").asText()).isEqualTo("30 2 * * *");
    assertThat(type.get("time_zone").asText()).isEqualTo("Europe/Paris");
    assertThat(type.get("default_interval").isNull()).isTrue();
    assertThat(drover("task-type", "show", "nightly").ok().stdout())
        .containsPattern("cron +30 2 \\* \\* \\*")
        .containsPattern("time_zone +Europe/Paris");
    assertThat(drover("task-type", "list").ok().stdout())
        .contains("SCHEDULE")
        .contains("cron 30 2 * * * (Europe/Paris)");

    // Without --next-run the task waits for the next 02:30 in Paris; this one is due already.
    JsonNode waiting = drover("task", "add", "--type", "nightly", "--json").ok().json().get(0);
    assertThat(isParisHalfPastTwo(Instant.parse(waiting.get("next_run").asText()))).isTrue();
    JsonNode due =
        drover(
                "task",
                "add",
                "--type",
                "nightly",
                "--args",
                "[\"due\"]",
                "--next-run",
                "2026-01-01T00:00:00Z",
                "--json")
            .ok()
            .json()
            .get(0);
    long id = due.get("id").asLong();

    JsonNode summary = drover("run", "--json").ok().json();
    assertThat(summary.get("uneventful").asInt()).isEqualTo(1);

    JsonNode shown = drover("task", "show", String.valueOf(id), "--json").ok().json();
    JsonNode run = shown.get("runs").get(0);
    assertThat(run.get("status").asText()).isEqualTo("uneventful");
    Instant ended = Instant.parse(run.get("ended").asText());
    Instant nextRun = Instant.parse(shown.get("task").get("next_run").asText());
    assertThat(nextRun)
        .isEqualTo(CronSchedule.of("30 2 * * *", "Europe/Paris").nextFireAfter(ended));
    assertThat(isParisHalfPastTwo(nextRun) || isSpringForwardShift(nextRun)).isTrue();
    assertThat(shown.get("task").get("current_interval").asText())
        .as("not adapted")
        .isEqualTo(due.get("current_interval").asText());

    assertThat(drover("task", "show", String.valueOf(id)).ok().stdout())
        .contains("Europe/Paris)")
        .contains("not used: cron 30 2 * * * (Europe/Paris)");
  }

  @Test
  void aConfigFileDeclaresACronType() {
    Path config =
        Fixtures.write(
            tmp.resolve("drover.yaml"),
            """
            task_types:
              hourly:
                cron: "0 * * * *"
                command: [echo, hi]
            """);
    drover("config", "apply", config).ok();
    JsonNode type = drover("task-type", "show", "hourly", "--json").ok().json();
    assertThat(type.get("cron").asText()).isEqualTo("0 * * * *");
    assertThat(type.get("time_zone").asText()).isEqualTo("UTC");
    assertThat(drover("config", "apply", config).ok().stdout()).contains("1 unchanged");
  }

  private static boolean isParisHalfPastTwo(Instant t) {
    ZonedDateTime paris = t.atZone(ZoneId.of("Europe/Paris"));
    return paris.getHour() == 2 && paris.getMinute() == 30;
  }

  /** 02:30 does not exist on the last Sunday of March; that day it fires at 03:30. */
  private static boolean isSpringForwardShift(Instant t) {
    ZonedDateTime paris = t.atZone(ZoneId.of("Europe/Paris"));
    return paris.getHour() == 3 && paris.getMinute() == 30;
  }
}
