package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Drover;
import dev.drover.frontier.ListedOrigin;
import dev.drover.model.TaskType;
import dev.drover.store.StoreLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input through the real CLI, one row per mistake. Each must exit with code 2, print exactly
 * one line on stderr that names the field or option (and nothing on stdout), and leave every row of
 * the database as it was; a command on a fresh directory must not create a database.
 */
class BadInputIT {

  /** What the data directory holds before the command runs. */
  enum Start {
    /** Nothing: the data directory does not exist. */
    NOTHING,
    /** A store with task types, waiting tasks and a completed one (see {@link Fixtures#seed}). */
    SEEDED,
    /** A seeded store whose schema history claims a version newer than this program. */
    NEWER_SCHEMA
  }

  /** Where a case runs: a scratch directory and the data directory inside it. */
  record Ctx(Path root, Path dataDir) {
    /** The command line with {@code --data-dir} first. */
    List<Object> cli(Object... args) {
      List<Object> all = new ArrayList<>(List.of("--data-dir", dataDir));
      all.addAll(Arrays.asList(args));
      return all;
    }

    Path file(String name, String text) {
      return Fixtures.write(root.resolve(name), text);
    }
  }

  /** One mistake: how to make it, and the words its error line must contain. */
  record Case(String name, Start start, Function<Ctx, List<Object>> args, List<String> mentions) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case seeded(String name, Function<Ctx, List<Object>> args, String... mentions) {
    return new Case(name, Start.SEEDED, args, List.of(mentions));
  }

  static Case fresh(String name, Function<Ctx, List<Object>> args, String... mentions) {
    return new Case(name, Start.NOTHING, args, List.of(mentions));
  }

  static Stream<Case> cases() {
    return Stream.of(
        // task types
        seeded(
            "min interval above max",
            c ->
                c.cli(
                    "task-type",
                    "add",
                    "--name",
                    "t",
                    "--default-interval",
                    "1h",
                    "--min-interval",
                    "2h",
                    "--max-interval",
                    "1h"),
            "--min-interval"),
        seeded(
            "default interval below min",
            c ->
                c.cli(
                    "task-type",
                    "add",
                    "--name",
                    "t",
                    "--default-interval",
                    "1m",
                    "--min-interval",
                    "10m",
                    "--max-interval",
                    "1h"),
            "--default-interval"),
        seeded(
            "default interval above max",
            c ->
                c.cli(
                    "task-type",
                    "add",
                    "--name",
                    "t",
                    "--default-interval",
                    "2d",
                    "--min-interval",
                    "10m",
                    "--max-interval",
                    "1d"),
            "--default-interval"),
        seeded(
            "backoff factor below 1",
            c -> c.cli("task-type", "add", "--name", "t", "--backoff-factor", "0.5"),
            "--backoff-factor"),
        seeded(
            "negative num retries",
            c -> c.cli("task-type", "add", "--name", "t", "--num-retries", "-1"),
            "--num-retries"),
        seeded(
            "zero max queue length",
            c -> c.cli("task-type", "add", "--name", "t", "--max-queue-length", "0"),
            "--max-queue-length"),
        seeded(
            "negative max queue length",
            c -> c.cli("task-type", "add", "--name", "t", "--max-queue-length", "-5"),
            "--max-queue-length"),
        seeded(
            "unreadable duration",
            c -> c.cli("task-type", "add", "--name", "t", "--lease", "forever"),
            "--lease",
            "forever"),
        seeded(
            "unknown worker group",
            c -> c.cli("task-type", "add", "--name", "t", "--group", "gpu"),
            "--group",
            "gpu"),
        seeded(
            "max per key without a concurrency key",
            c -> c.cli("task-type", "add", "--name", "t", "--max-per-key", "2"),
            "--concurrency-key"),
        seeded(
            "concurrency key without max per key",
            c -> c.cli("task-type", "add", "--name", "t", "--concurrency-key", "owner"),
            "--max-per-key"),
        seeded(
            "zero max per key",
            c ->
                c.cli(
                    "task-type",
                    "add",
                    "--name",
                    "t",
                    "--concurrency-key",
                    "owner",
                    "--max-per-key",
                    "0"),
            "--max-per-key"),
        fresh(
            "unknown worker group on a fresh dir",
            c -> c.cli("task-type", "add", "--name", "t", "--group", "gpu"),
            "--group"),
        // tasks
        seeded(
            "unknown task type",
            c -> c.cli("task", "add", "--type", "load-svn"),
            "--type",
            "load-svn"),
        seeded(
            "recurring task of a oneshot-only type",
            c -> c.cli("task", "add", "--type", "check", "--policy", "recurring"),
            "--policy"),
        seeded(
            "malformed JSON args",
            c -> c.cli("task", "add", "--type", "load-git", "--args", "[1,"),
            "--args"),
        seeded(
            "args not an array",
            c -> c.cli("task", "add", "--type", "load-git", "--args", "{\"a\": 1}"),
            "--args"),
        seeded(
            "kwargs not an object",
            c -> c.cli("task", "add", "--type", "load-git", "--kwargs", "[1]"),
            "--kwargs"),
        seeded(
            "unknown priority",
            c -> c.cli("task", "add", "--type", "load-git", "--priority", "urgent"),
            "--priority",
            "urgent"),
        seeded(
            "unknown policy",
            c -> c.cli("task", "add", "--type", "load-git", "--policy", "sometimes"),
            "--policy",
            "sometimes"),
        seeded(
            "negative retries",
            c -> c.cli("task", "add", "--type", "load-git", "--retries", "-1"),
            "--retries"),
        seeded(
            "unparsable next run",
            c -> c.cli("task", "add", "--type", "load-git", "--next-run", "tomorrow"),
            "--next-run",
            "tomorrow"),
        seeded(
            "unknown task status",
            c -> c.cli("task", "search", "--status", "runing"),
            "--status",
            "running"),
        seeded(
            "unparsable search timestamp",
            c -> c.cli("task", "search", "--after", "2026-13-45"),
            "--after"),
        seeded(
            "unknown run status",
            c -> c.cli("task-run", "list", "--status", "done"),
            "--status",
            "done"),
        seeded("enable a non-numeric id", c -> c.cli("task", "enable", "abc"), "ID", "abc"),
        seeded("disable a non-numeric id", c -> c.cli("task", "disable", "1", "x2"), "ID", "x2"),
        seeded("disable a missing task", c -> c.cli("task", "disable", "1", "999"), "ID", "999"),
        seeded("show a missing task", c -> c.cli("task", "show", "999"), "ID", "999"),
        // operator control (issue 12): every verb refuses the whole list when one id is bad
        seeded(
            "add under a missing parent",
            c -> c.cli("task", "add", "--type", "check", "--args", "[\"f\"]", "--parent", "999"),
            "--parent",
            "999"),
        seeded(
            "add under a parent that has not run",
            c -> c.cli("task", "add", "--type", "check", "--args", "[\"f\"]", "--parent", "1"),
            "--parent",
            "waiting"),
        seeded(
            "add under a non-numeric parent",
            c -> c.cli("task", "add", "--type", "check", "--parent", "one"),
            "--parent",
            "one"),
        seeded(
            "add a batch under a parent",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--file",
                    c.file("t.jsonl", "{\"type\":\"check\"}\n"),
                    "--parent",
                    "1"),
            "--parent",
            "--file"),
        seeded("pause a non-numeric id", c -> c.cli("task", "pause", "1", "x"), "ID", "x"),
        seeded("pause a missing task", c -> c.cli("task", "pause", "1", "999"), "ID", "999"),
        seeded("resume a missing tree", c -> c.cli("task", "resume", "--tree", "999"), "ID", "999"),
        seeded("cancel a missing task", c -> c.cli("task", "cancel", "2", "999"), "ID", "999"),
        seeded("cancel with no id", c -> c.cli("task", "cancel", "--tree"), "ID"),
        seeded("retry a negative id", c -> c.cli("task", "retry", "-5"), "-5"),
        seeded("retry a missing task", c -> c.cli("task", "retry", "3", "999"), "ID", "999"),
        seeded("retry a tree", c -> c.cli("task", "retry", "--tree", "3"), "--tree", "retry"),
        seeded("delete a missing task", c -> c.cli("task", "delete", "1", "999"), "ID", "999"),
        seeded("delete a non-numeric id", c -> c.cli("task", "delete", "one"), "ID", "one"),
        seeded("tree of a missing task", c -> c.cli("task", "tree", "999"), "ID", "999"),
        seeded(
            "tree with zero children shown",
            c -> c.cli("task", "tree", "1", "--children", "0"),
            "--children"),
        seeded(
            "pause a missing task type", c -> c.cli("task-type", "pause", "nope"), "NAME", "nope"),
        seeded(
            "resume a missing task type",
            c -> c.cli("task-type", "resume", "nope"),
            "NAME",
            "nope"),
        seeded(
            "unknown children rule",
            c ->
                c.cli(
                    "task-type",
                    "add",
                    "--name",
                    "crawl",
                    "--command",
                    "true",
                    "--children-rule",
                    "most"),
            "--children-rule",
            "most"),
        seeded(
            "unknown run history",
            c ->
                c.cli(
                    "task-type",
                    "add",
                    "--name",
                    "light",
                    "--command",
                    "true",
                    "--run-history",
                    "successes"),
            "--run-history",
            "successes"),
        seeded(
            "batch with a bad line",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--file",
                    c.file(
                        "tasks.jsonl",
                        """
            {"type": "load-git", "kwargs": {"path": "/srv/new1.git"}}
            {"type": "load-git", "kwargs": {"path": "/srv/new2.git"}}
            {"type": "load-git", "kwargs": {"path": "/srv/new3.git"}, "priority": "urgent"}
            """)),
            "tasks.jsonl:3",
            "priority"),
        seeded(
            "batch with an unknown type",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--file",
                    c.file(
                        "tasks.jsonl",
                        """
            {"type": "load-git", "kwargs": {"path": "/srv/new1.git"}}

            {"type": "load-svn", "kwargs": {"path": "/srv/new2.svn"}}
            """)),
            "tasks.jsonl:3",
            "type",
            "load-svn"),
        seeded(
            "batch with malformed JSON",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--file",
                    c.file(
                        "tasks.jsonl",
                        """
            {"type": "load-git", "kwargs": {"path": "/srv/new1.git"}}
            {"type": "load-git", "kwargs": {"path":
            """)),
            "tasks.jsonl:2"),
        // issue 14 items 5, 22 and 23: refused at input rather than failing or changed later
        seeded(
            "task that cannot fill its type's command",
            c -> c.cli("task", "add", "--type", "load-git", "--kwargs", "{\"url\": \"x\"}"),
            "{kwargs.path}",
            "load-git"),
        seeded(
            "batch line that cannot fill its type's command",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--file",
                    c.file(
                        "tasks.jsonl",
                        """
            {"type": "load-git", "kwargs": {"path": "/srv/new1.git"}}
            {"type": "load-git", "args": ["/srv/new2.git"]}
            """)),
            "tasks.jsonl:2",
            "{kwargs.path}"),
        seeded(
            "a whole command line as one --command",
            c -> c.cli("task-type", "add", "--name", "t", "--command", "echo hi"),
            "--command",
            "--command echo --command hi"),
        seeded("mistyped command", c -> c.cli("tsk", "list"), "'tsk'", "did you mean 'task'?"),
        seeded(
            "mistyped option",
            c -> c.cli("status", "--dat-dir", "x"),
            "--dat-dir",
            "did you mean '--data-dir'?"),
        seeded(
            "--config given to a command that reads no configuration",
            c -> c.cli("status", "--config", "drover.yaml"),
            "--config"),
        seeded(
            "command with an unclosed placeholder",
            c -> c.cli("task-type", "add", "--name", "t", "--command", "{args."),
            "--command",
            "unclosed"),
        seeded(
            "config command with an unclosed placeholder",
            c ->
                c.cli(
                    "config",
                    "apply",
                    c.file(
                        "bad.yaml",
                        """
                        task_types:
                          t:
                            command: [echo, "{kwargs.x"]
                        """)),
            "command",
            "unclosed"),
        // cron task types
        seeded(
            "cron with a value out of range",
            c -> c.cli("task-type", "add", "--name", "t", "--cron", "61 2 * * *"),
            "--cron",
            "61"),
        seeded(
            "cron with a seconds field",
            c -> c.cli("task-type", "add", "--name", "t", "--cron", "0 30 2 * * *"),
            "--cron",
            "minute hour day-of-month month day-of-week"),
        seeded(
            "cron in Quartz syntax",
            c -> c.cli("task-type", "add", "--name", "t", "--cron", "0 0 ? * MON"),
            "--cron"),
        seeded(
            "cron that never fires",
            c -> c.cli("task-type", "add", "--name", "t", "--cron", "0 0 30 2 *"),
            "--cron",
            "never fires"),
        seeded(
            "cron with an unknown time zone",
            c ->
                c.cli(
                    "task-type",
                    "add",
                    "--name",
                    "t",
                    "--cron",
                    "30 2 * * *",
                    "--time-zone",
                    "Europe/Pariss"),
            "--time-zone",
            "IANA"),
        seeded(
            "time zone without cron",
            c -> c.cli("task-type", "add", "--name", "t", "--time-zone", "Europe/Paris"),
            "--time-zone",
            "cron"),
        seeded(
            "cron with an interval",
            c ->
                c.cli(
                    "task-type",
                    "add",
                    "--name",
                    "t",
                    "--cron",
                    "30 2 * * *",
                    "--default-interval",
                    "1d"),
            "--default-interval",
            "cron"),
        seeded(
            "cron with a backoff factor",
            c ->
                c.cli(
                    "task-type",
                    "add",
                    "--name",
                    "t",
                    "--cron",
                    "30 2 * * *",
                    "--backoff-factor",
                    "2"),
            "--backoff-factor",
            "--cron"),
        seeded(
            "config cron with an unknown time zone",
            c ->
                c.cli(
                    "config",
                    "apply",
                    c.file(
                        "bad.yaml",
                        """
                        task_types:
                          t:
                            cron: "30 2 * * *"
                            time_zone: CEST
                            command: [echo]
                        """)),
            "bad.yaml:4",
            "task_types.t.time_zone"),
        seeded(
            "default interval beyond 100 years",
            c -> c.cli("task-type", "add", "--name", "t", "--default-interval", "999999999999d"),
            "--default-interval",
            "36500d"),
        seeded(
            "lease beyond 100 years in ISO form",
            c -> c.cli("task-type", "add", "--name", "t", "--lease", "P36501D"),
            "--lease",
            "36500d"),
        seeded(
            "config interval beyond 100 years",
            c ->
                c.cli(
                    "config",
                    "apply",
                    c.file(
                        "bad.yaml",
                        """
                        task_types:
                          t:
                            default_interval: 40000d
                        """)),
            "default_interval",
            "36500d"),
        seeded(
            "infinite backoff factor",
            c -> c.cli("task-type", "add", "--name", "t", "--backoff-factor", "Infinity"),
            "--backoff-factor",
            "100"),
        seeded(
            "NaN backoff factor",
            c -> c.cli("task-type", "add", "--name", "t", "--backoff-factor", "NaN"),
            "--backoff-factor"),
        seeded(
            "config backoff factor above 100",
            c ->
                c.cli(
                    "config",
                    "apply",
                    c.file(
                        "bad.yaml",
                        """
                        task_types:
                          t:
                            backoff_factor: 1000
                        """)),
            "backoff_factor",
            "100"),
        seeded(
            "next run beyond year 9999",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--type",
                    "check",
                    "--policy",
                    "oneshot",
                    "--next-run",
                    "+999999999-12-31T23:59:59Z"),
            "--next-run",
            "9999"),
        seeded(
            "batch next run beyond year 9999",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--file",
                    c.file(
                        "tasks.jsonl",
                        """
            {"type": "check", "policy": "oneshot", "next_run": "+10000-01-01T00:00:00Z"}
            """)),
            "tasks.jsonl:1",
            "next_run"),
        seeded(
            "args with a second JSON value",
            c ->
                c.cli("task", "add", "--type", "check", "--policy", "oneshot", "--args", "[1] [2]"),
            "--args",
            "after the JSON value"),
        seeded(
            "args with a lone surrogate",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--type",
                    "check",
                    "--policy",
                    "oneshot",
                    "--args",
                    "[\"\\ud800\"]"),
            "--args",
            "surrogate"),
        seeded(
            "args with a NUL character, which PostgreSQL cannot store",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--type",
                    "check",
                    "--policy",
                    "oneshot",
                    "--args",
                    "[\"a\\u0000b\"]"),
            "--args",
            "NUL character"),
        seeded(
            "kwargs with a duplicate key",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--type",
                    "load-git",
                    "--kwargs",
                    "{\"path\": \"/a\", \"path\": \"/b\"}"),
            "--kwargs",
            "Duplicate field 'path'"),
        seeded(
            "batch line with a lone surrogate",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--file",
                    c.file(
                        "tasks.jsonl",
                        """
            {"type": "load-git", "kwargs": {"path": "/srv/\\udc00.git"}}
            """)),
            "tasks.jsonl:1",
            "lone surrogate"),
        seeded(
            "batch line with two JSON values",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--file",
                    c.file(
                        "tasks.jsonl",
                        """
            {"type": "load-git", "kwargs": {"path": "/srv/x.git"}} {"type": "check"}
            """)),
            "tasks.jsonl:1",
            "after the JSON value"),
        seeded(
            "batch line with a duplicate key",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--file",
                    c.file(
                        "tasks.jsonl",
                        """
            {"type": "check", "type": "load-git", "kwargs": {"path": "/srv/x.git"}}
            """)),
            "tasks.jsonl:1",
            "Duplicate field 'type'"),
        seeded(
            "task without its type's concurrency key",
            c ->
                withPerKeyType(c)
                    .cli(
                        "task",
                        "add",
                        "--type",
                        "build",
                        "--policy",
                        "oneshot",
                        "--kwargs",
                        "{\"user\": \"bob\"}"),
            "--kwargs",
            "'owner'",
            "concurrency_key"),
        seeded(
            "batch with a line without the concurrency key",
            c ->
                withPerKeyType(c)
                    .cli(
                        "task",
                        "add",
                        "--file",
                        c.file(
                            "tasks.jsonl",
                            """
            {"type": "build", "policy": "oneshot", "kwargs": {"owner": "alice"}}
            {"type": "build", "policy": "oneshot", "kwargs": {"user": "bob"}}
            """)),
            "tasks.jsonl:2",
            "kwargs.owner"),
        // the crawl frontier
        seeded(
            "grab with an unknown policy",
            c ->
                withFrontier(c)
                    .cli(
                        "visit",
                        "grab",
                        "--visit-type",
                        "git",
                        "--count",
                        "5",
                        "--policy",
                        "newest_first"),
            "--policy",
            "newest_first"),
        seeded(
            "grab a negative count",
            c ->
                withFrontier(c)
                    .cli(
                        "visit",
                        "grab",
                        "--visit-type",
                        "git",
                        "--count",
                        "-1",
                        "--policy",
                        "oldest_scheduled_first"),
            "--count"),
        seeded(
            "grab for an unknown lister",
            c ->
                withFrontier(c)
                    .cli(
                        "visit",
                        "grab",
                        "--visit-type",
                        "git",
                        "--count",
                        "5",
                        "--policy",
                        "oldest_scheduled_first",
                        "--lister",
                        "gitea"),
            "--lister",
            "gitea"),
        seeded(
            "origins with a malformed line",
            c ->
                withFrontier(c)
                    .cli(
                        "origin",
                        "record",
                        "--lister",
                        "github",
                        c.file(
                            "origins.jsonl",
                            """
            {"url": "https://github.com/new1", "visit_type": "git"}
            {"url": "https://github.com/new2", "visit_type":
            {"url": "https://github.com/new3", "visit_type": "git", "enabled": "perhaps"}
            """)),
            "origins.jsonl:2",
            "and 1 more invalid line"),
        seeded(
            "origins: a NUL in the url of the last of 2,500 lines, after two whole batches",
            c ->
                withFrontier(c)
                    .cli(
                        "origin",
                        "record",
                        "--lister",
                        "github",
                        c.file(
                            "many.jsonl",
                            lines(
                                2_500,
                                i ->
                                    "{\"url\": \"https://github.com/o"
                                        + i
                                        + "\", \"visit_type\": \"git\"}",
                                "{\"url\": \"https://github.com/\\u0000\", \"visit_type\": \"git\"}"))),
            "many.jsonl:2500",
            "NUL",
            "nothing recorded"),
        seeded(
            "origins without a visit type",
            c ->
                withFrontier(c)
                    .cli(
                        "origin",
                        "record",
                        "--lister",
                        "github",
                        c.file(
                            "origins.csv",
                            """
            url,visit_type
            https://github.com/new1,git
            https://github.com/new2,
            """)),
            "origins.csv:3",
            "visit_type"),
        // issue 14 item 10: CSV as spreadsheets write it; the line named is where the record starts
        seeded(
            "origins csv with a bad row after a quoted cell spanning lines",
            c ->
                withFrontier(c)
                    .cli(
                        "origin",
                        "record",
                        "--lister",
                        "github",
                        c.file(
                            "origins.csv",
                            "\uFEFFurl,visit_type,extra_loader_arguments\r\n"
                                + "https://github.com/new1,git,\"{\"\"note\"\":\r\n"
                                + "\"\"a, b\"\"}\"\r\n"
                                + "https://github.com/new2,git,{}\r\n"
                                + "https://github.com/new3,git,not json\r\n")),
            "origins.csv:5: extra_loader_arguments"),
        seeded(
            "origins csv with an unclosed quote",
            c ->
                withFrontier(c)
                    .cli(
                        "origin",
                        "record",
                        "--lister",
                        "github",
                        c.file(
                            "origins.csv",
                            """
            url,visit_type
            https://github.com/new1,git
            "https://github.com/new2,git
            """)),
            "origins.csv:",
            "not readable as CSV"),
        seeded(
            "batch with a byte-order mark and a bad last line",
            c ->
                c.cli(
                    "task",
                    "add",
                    "--file",
                    c.file(
                        "tasks.jsonl",
                        "\uFEFF{\"type\": \"load-git\", \"kwargs\": {\"path\": \"/srv/n1.git\"}}\n"
                            + "{\"type\": \"load-git\", \"kwargs\": {\"path\": \"/srv/n2.git\"}}\n"
                            + "{\"type\": \"load-git\", \"retries\": -1}\n")),
            "tasks.jsonl:3: retries"),
        seeded(
            "origins of an unknown lister",
            c ->
                withFrontier(c)
                    .cli(
                        "origin",
                        "record",
                        c.file(
                            "origins.jsonl",
                            """
            {"url": "https://github.com/new1", "visit_type": "git", "lister": "github"}
            {"url": "https://gitea.com/new2", "visit_type": "git", "lister": "gitea"}
            """)),
            "origins.jsonl:2",
            "lister",
            "gitea"),
        seeded(
            "stale lister update",
            c ->
                withFrontier(c)
                    .cli(
                        "lister",
                        "update",
                        "github",
                        "--expect-updated",
                        "2020-01-01T00:00:00Z",
                        "--state",
                        "{\"page\": 2}"),
            "--expect-updated",
            "stale"),
        seeded(
            "show an unknown lister",
            c -> withFrontier(c).cli("lister", "show", "gitea"),
            "NAME",
            "gitea"),
        seeded(
            "metrics of an unknown lister",
            c -> withFrontier(c).cli("metrics", "update", "--lister", "gitea"),
            "--lister",
            "gitea"),
        seeded(
            "visit results with a bad status",
            c ->
                withFrontier(c)
                    .cli(
                        "visit",
                        "ingest",
                        c.file(
                            "results.jsonl",
                            """
            {"url": "https://github.com/a", "visit_type": "git", "date": "2026-03-01T00:00:00Z", "status": "full", "snapshot": "s"}
            {"url": "https://github.com/a", "visit_type": "git", "date": "2026-03-02T00:00:00Z", "status": "great"}
            """)),
            "results.jsonl:2",
            "status",
            "great"),
        seeded(
            "visit results: a bad status on the last of 2,500 lines, after two whole batches",
            c ->
                withFrontier(c)
                    .cli(
                        "visit",
                        "ingest",
                        c.file(
                            "many-results.jsonl",
                            lines(
                                2_500,
                                i ->
                                    "{\"url\": \"https://github.com/a\", \"visit_type\": \"git\","
                                        + " \"date\": \"2026-03-01T00:00:"
                                        + String.format("%02d", i % 60)
                                        + "Z\", \"status\": \"full\", \"snapshot\": \"s"
                                        + i
                                        + "\"}",
                                "{\"url\": \"https://github.com/a\", \"visit_type\": \"git\","
                                    + " \"date\": \"2026-03-02T00:00:00Z\", \"status\": \"great\"}"))),
            "many-results.jsonl:2500",
            "status",
            "great"),
        // archive
        seeded(
            "archive with after later than before",
            c ->
                c.cli(
                    "archive",
                    "--after",
                    "2026-02-01",
                    "--before",
                    "2026-01-01",
                    "--export",
                    c.root().resolve("out.jsonl"),
                    "--delete"),
            "--after"),
        seeded(
            "archive delete without export",
            c -> c.cli("archive", "--after", "2000-01-01", "--before", "2100-01-01", "--delete"),
            "--delete"),
        seeded(
            "archive over an existing file",
            c ->
                c.cli(
                    "archive",
                    "--after",
                    "2000-01-01",
                    "--before",
                    "2100-01-01",
                    "--export",
                    c.file("old.jsonl", "keep me\n"),
                    "--delete"),
            "--export"),
        // configuration files
        seeded(
            "config with an invalid value",
            c ->
                c.cli(
                    "config",
                    "apply",
                    c.file(
                        "bad.yaml",
                        """
            task_types:
              load-hg:
                default_interval: 1h
                min_interval: 2h
            """)),
            "bad.yaml:3",
            "default_interval"),
        seeded(
            "config with an unknown key",
            c ->
                c.cli(
                    "config",
                    "apply",
                    c.file(
                        "bad.yaml",
                        """
            worker_groups:
              vcs: {max_workers: 9}
            task_types:
              load-hg:
                colour: red
            """)),
            "bad.yaml:5",
            "colour"),
        seeded(
            "config with a YAML syntax error",
            c ->
                c.cli(
                    "config",
                    "apply",
                    c.file(
                        "bad.yaml",
                        """
            limits:
              total_workers: 9
            task_types: [
              load-hg
            """)),
            "bad.yaml:",
            "yaml"),
        seeded(
            "init with an invalid drover.yaml in the data dir",
            c -> {
              c.file("data/drover.yaml", "limits:\n  total_workers: -3\n");
              return c.cli("init");
            },
            "drover.yaml:2",
            "total_workers"),
        // the runner
        seeded("run with zero workers", c -> c.cli("run", "--workers", "0"), "--workers"),
        seeded(
            "run with an unreadable grace",
            c -> c.cli("run", "--grace", "nonsense"),
            "--grace",
            "nonsense"),
        seeded(
            "run with a negative claim-ahead",
            c -> c.cli("run", "--claim-ahead", "-5ms"),
            "--claim-ahead",
            "-5ms"),
        seeded(
            "run an unknown task type",
            c -> c.cli("run", "--type", "load-svn"),
            "--type",
            "load-svn"),
        seeded(
            "run a type nothing can execute",
            c -> withManualType(c).cli("run", "--type", "manual"),
            "--type",
            "manual"),
        seeded(
            "task of a type nothing can execute",
            c -> withManualType(c).cli("task", "add", "--type", "manual"),
            "--type",
            "manual",
            "--allow-unexecutable"),
        fresh("run without a store", c -> c.cli("run"), "--data-dir", "init"),
        // command lines
        seeded("unknown command option", c -> c.cli("task", "list", "--colour"), "--colour"),
        seeded("option without its value", c -> c.cli("task", "add", "--type"), "--type"),
        // stores
        fresh(
            "unknown database URL scheme",
            c -> List.of("--db", "mysql://localhost/drover", "init"),
            "--db",
            "mysql"),
        fresh(
            "data dir is a regular file",
            c -> List.of("--data-dir", c.file("plain", "x"), "init"),
            "--data-dir"),
        fresh(
            "data dir's parent is a regular file",
            c -> List.of("--data-dir", c.file("plain", "x").resolve("data"), "init"),
            "--data-dir"),
        fresh("no store in the data dir", c -> c.cli("task", "list"), "--data-dir", "init"),
        new Case(
            "schema newer than the program",
            Start.NEWER_SCHEMA,
            c -> c.cli("task", "list"),
            List.of("--data-dir", "999")));
  }

  /**
   * Adds a lister "github" with one origin to the seeded store; runs before the snapshot is taken.
   */
  /** {@code n} lines of a file: {@code line.apply(i)} for i = 1 .. n - 1, then {@code last}. */
  static String lines(int n, IntFunction<String> line, String last) {
    StringBuilder text = new StringBuilder();
    for (int i = 1; i < n; i++) {
      text.append(line.apply(i)).append('\n');
    }
    return text.append(last).append('\n').toString();
  }

  static Ctx withFrontier(Ctx c) {
    try (Drover drover = Drover.open(StoreLocation.dataDir(c.dataDir()))) {
      var github = drover.frontier().listerGetOrCreate("github", null, null, drover.now());
      drover
          .frontier()
          .originRecord(
              List.of(ListedOrigin.of(github.id(), "https://github.com/a", "git")), drover.now());
    }
    return c;
  }

  /**
   * Adds a type limited per {@code owner} to the seeded store; runs before the snapshot is taken.
   */
  static Ctx withPerKeyType(Ctx c) {
    try (Drover drover = Drover.open(StoreLocation.dataDir(c.dataDir()))) {
      drover.taskTypeCreate(
          TaskType.builder("build").perKeyLimit("owner", 2).command(List.of("true")).build());
    }
    return c;
  }

  /**
   * Adds a recurring type "manual" with no command to the seeded store; runs before the snapshot.
   */
  static Ctx withManualType(Ctx c) {
    try (Drover drover = Drover.open(StoreLocation.dataDir(c.dataDir()))) {
      drover.taskTypeCreate(
          TaskType.builder("manual").defaultInterval(Duration.ofHours(1)).build());
    }
    return c;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void isRefusedInOneLineAndChangesNothing(Case c, @TempDir Path tmp) throws Exception {
    Ctx ctx = new Ctx(tmp, tmp.resolve("data"));
    if (c.start() != Start.NOTHING) {
      Fixtures.seed(StoreLocation.dataDir(ctx.dataDir()), tmp);
    }
    if (c.start() == Start.NEWER_SCHEMA) {
      claimNewerSchema(ctx.dataDir());
    }
    List<Object> args = c.args().apply(ctx);
    List<String> before = DbSnapshot.ofDataDir(ctx.dataDir());

    DroverCli.Result r = DroverCli.in(tmp).run(args.toArray());

    assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
    assertThat(r.stderrLines()).as(r.toString()).hasSize(1);
    assertThat(r.stderrLines().get(0)).startsWith("drover: ").contains(c.mentions());
    assertThat(r.stdout()).as(r.toString()).isEmpty();
    assertThat(DbSnapshot.ofDataDir(ctx.dataDir())).isEqualTo(before);
    if (c.start() == Start.NOTHING) {
      assertThat(databasesUnder(tmp)).as("databases created").isEmpty();
    }
  }

  /** Records a migration 999 in Flyway's history, as a newer Drover would have. */
  private static void claimNewerSchema(Path dataDir) throws SQLException {
    String url = "jdbc:sqlite:" + dataDir.resolve(StoreLocation.DATABASE_FILE).toAbsolutePath();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.executeUpdate(
          "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, "
              + "checksum, installed_by, installed_on, execution_time, success) "
              + "VALUES (999, '999', 'from the future', 'SQL', 'V999__from_the_future.sql', 0, 'test', "
              + "'2030-01-01 00:00:00.000', 1, 1)");
    }
  }

  private static List<Path> databasesUnder(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(f -> f.getFileName().toString().startsWith(StoreLocation.DATABASE_FILE))
          .toList();
    }
  }
}
