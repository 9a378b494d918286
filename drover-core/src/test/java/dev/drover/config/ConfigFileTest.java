package dev.drover.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import dev.drover.frontier.VisitPolicy;
import dev.drover.model.RunHistory;
import dev.drover.model.TaskType;
import dev.drover.model.WorkerGroup;
import dev.drover.store.Store;
import dev.drover.store.StoreLocation;
import dev.drover.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigFileTest {
  static final String VALID =
      """
      # a comment
      limits:
        total_workers: 8
      worker_groups:
        vcs:
          max_workers: 4
      task_types:
        load-git:
          description: mirror a git repository
          default_interval: 1d
          min_interval: 12h
          max_interval: 64d
          backoff_factor: 2
          num_retries: 3
          retry_delay: 2h
          max_workers: 2
          group: vcs
          command: [git, -C, "{kwargs.path}", fetch, --all]
          env: {GIT_TERMINAL_PROMPT: "0"}
        checksum:
          lease: 30s
      """;

  @TempDir Path dir;
  Store store;

  @BeforeEach
  void open() {
    store = Stores.open(StoreLocation.dataDir(dir.resolve("data")));
  }

  @AfterEach
  void close() {
    store.close();
  }

  Path write(String yaml) throws Exception {
    return Files.writeString(dir.resolve("drover.yaml"), yaml);
  }

  @Test
  void aValidFileIsReadWithEverySetting() throws Exception {
    ConfigFile config = ConfigFile.read(write(VALID));
    assertThat(config.limits()).containsExactly(Map.entry("total_workers", "8"));
    assertThat(config.workerGroups()).containsExactly(new WorkerGroup("vcs", 4));
    assertThat(config.taskTypes())
        .containsExactly(
            TaskType.builder("load-git")
                .description("mirror a git repository")
                .intervals(Duration.ofDays(1), Duration.ofHours(12), Duration.ofDays(64))
                .backoffFactor(2)
                .numRetries(3)
                .retryDelay(Duration.ofHours(2))
                .maxWorkers(2)
                .workerGroup("vcs")
                .command(List.of("git", "-C", "{kwargs.path}", "fetch", "--all"))
                .env(Map.of("GIT_TERMINAL_PROMPT", "0"))
                .build(),
            TaskType.builder("checksum").lease(Duration.ofSeconds(30)).build());
  }

  @Test
  void applyingIsIdempotentAndFollowsChanges() throws Exception {
    ConfigReport first = ConfigFile.read(write(VALID)).applyTo(store);
    assertThat(first.created()).isEqualTo(4);
    assertThat(first.lines())
        .contains("task type load-git: created", "limit total_workers = 8: created");

    ConfigReport again = ConfigFile.read(write(VALID)).applyTo(store);
    assertThat(again.created()).isZero();
    assertThat(again.updated()).isZero();
    assertThat(again.unchanged()).isEqualTo(4);

    ConfigReport changed =
        ConfigFile.read(write(VALID.replace("num_retries: 3", "num_retries: 5"))).applyTo(store);
    assertThat(changed.updated()).isEqualTo(1);
    assertThat(store.taskTypeGet("load-git").orElseThrow().numRetries()).isEqualTo(5);
    assertThat(store.settingList()).containsEntry("limits.total_workers", "8");
    assertThat(store.workerGroupList()).containsExactly(new WorkerGroup("vcs", 4));
  }

  @Test
  void anEmptyFileDeclaresNothing() throws Exception {
    ConfigFile config = ConfigFile.read(write("# nothing yet\n"));
    assertThat(config.taskTypes()).isEmpty();
    assertThat(config.applyTo(store).lines()).isEmpty();
  }

  static final String CRON =
      """
      task_types:
        nightly:
          cron: "30 2 * * *"
          time_zone: Europe/Paris
          num_retries: 1
      """;

  @Test
  void aCronTypeIsReadWithItsZone() throws Exception {
    ConfigFile.read(write(CRON)).applyTo(store);
    assertThat(store.taskTypeGet("nightly"))
        .contains(
            TaskType.builder("nightly").cron("30 2 * * *", "Europe/Paris").numRetries(1).build());
    ConfigFile.read(write(CRON.replace("    time_zone: Europe/Paris\n", ""))).applyTo(store);
    assertThat(store.taskTypeGet("nightly").orElseThrow().cron().zone().getId()).isEqualTo("UTC");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      bad cron           | 3 | task_types.nightly.cron | cron: "30 2 * * *"|cron: "61 2 * * *"
      seconds field      | 3 | task_types.nightly.cron | cron: "30 2 * * *"|cron: "0 30 2 * * *"
      bad zone           | 4 | task_types.nightly.time_zone | time_zone: Europe/Paris|time_zone: Paris
      zone without cron  | 4 | task_types.nightly.time_zone | cron: "30 2 * * *"|description: x
      cron and interval  | 5 | task_types.nightly.default_interval | num_retries: 1|default_interval: 1d
      """)
  void anInvalidCronTypeIsRefusedWithLineAndSetting(
      String what, int line, String setting, String from, String to) throws Exception {
    Path file = write(CRON.replace(from, to));
    assertThatThrownBy(() -> ConfigFile.read(file).applyTo(store))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith(file + ":" + line + ": " + setting + ": ")
        .hasMessageNotContaining("\n");
    assertThat(store.taskTypeList()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      min above max            | 11 | task_types.load-git.min_interval | min_interval: 12h|min_interval: 90d
      default below min        | 10 | task_types.load-git.default_interval | default_interval: 1d|default_interval: 1h
      backoff below one        | 13 | task_types.load-git.backoff_factor | backoff_factor: 2|backoff_factor: 0.5
      negative retries         | 14 | task_types.load-git.num_retries | num_retries: 3|num_retries: -1
      unreadable duration      | 15 | task_types.load-git.retry_delay | retry_delay: 2h|retry_delay: soon
      not a number             | 16 | task_types.load-git.max_workers | max_workers: 2|max_workers: two
      unknown group            | 17 | task_types.load-git.group | group: vcs|group: nobody
      unknown task type key    | 15 | task_types.load-git.retry_dealy | retry_delay: 2h|retry_dealy: 2h
      unknown top-level key    | 2 | limit | limits:|limit:
      zero group size          | 6 | worker_groups.vcs.max_workers | max_workers: 4|max_workers: 0
      bad limit                | 3 | limits.total_workers | total_workers: 8|total_workers: -3
      command not a list       | 18 | task_types.load-git.command | command: [git, -C, "{kwargs.path}", fetch, --all]|command: git fetch
      yaml syntax              | 19 | yaml | command: [git, -C, "{kwargs.path}", fetch, --all]|command: [git, -C
      """)
  void anInvalidFileIsRefusedWholeWithLineAndSetting(
      String what, int line, String setting, String from, String to) throws Exception {
    Path file = write(VALID.replace(from, to));
    assertThat(Files.readString(file)).isNotEqualTo(VALID);
    assertThatThrownBy(() -> ConfigFile.read(file).applyTo(store))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith(file + ":" + line + ": " + setting + ": ")
        .hasMessageNotContaining("\n");
    assertThat(store.taskTypeList()).isEmpty();
    assertThat(store.workerGroupList()).isEmpty();
    assertThat(store.settingList()).isEmpty();
  }

  static final String PER_KEY =
      """
      task_types:
        build:
          concurrency_key: owner
          max_per_key: 2
      """;

  @Test
  void aPerKeyLimitIsReadAndApplied() throws Exception {
    ConfigFile config = ConfigFile.read(write(PER_KEY));
    TaskType build = TaskType.builder("build").perKeyLimit("owner", 2).build();
    assertThat(config.taskTypes()).containsExactly(build);
    config.applyTo(store);
    assertThat(store.taskTypeGet("build")).contains(build);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      key without limit  | 3 | task_types.build.max_per_key | max_per_key: 2|description: x
      limit without key  | 3 | task_types.build.concurrency_key | concurrency_key: owner|description: x
      zero limit         | 4 | task_types.build.max_per_key | max_per_key: 2|max_per_key: 0
      limit not a number | 4 | task_types.build.max_per_key | max_per_key: 2|max_per_key: two
      key not a scalar   | 3 | task_types.build.concurrency_key | concurrency_key: owner|concurrency_key: [a, b]
      """)
  void aBadPerKeyLimitIsRefusedWithLineAndSetting(
      String what, int line, String setting, String from, String to) throws Exception {
    Path file = write(PER_KEY.replace(from, to));
    assertThatThrownBy(() -> ConfigFile.read(file).applyTo(store))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith(file + ":" + line + ": " + setting + ": ")
        .hasMessageNotContaining("\n");
    assertThat(store.taskTypeList()).isEmpty();
  }

  @Test
  void aRunHistoryIsReadAndApplied() throws Exception {
    ConfigFile config =
        ConfigFile.read(write("task_types:\n  light:\n    run_history: failures\n"));
    TaskType light = TaskType.builder("light").runHistory(RunHistory.FAILURES).build();
    assertThat(config.taskTypes()).containsExactly(light);
    config.applyTo(store);
    assertThat(store.taskTypeGet("light")).contains(light);
  }

  @Test
  void anUnknownRunHistoryIsRefusedWithLineAndSetting() throws Exception {
    Path file = write("task_types:\n  light:\n    run_history: successes\n");
    assertThatThrownBy(() -> ConfigFile.read(file).applyTo(store))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith(file + ":3: task_types.light.run_history: ")
        .hasMessageContaining("successes")
        .hasMessageNotContaining("\n");
    assertThat(store.taskTypeList()).isEmpty();
  }

  static final String VISITS =
      """
      visit_scheduler:
        enabled: true
        visit_types:
          git:
            policies:
              already_visited_order_by_lag: 49
              never_visited_oldest_update_first: {weight: 49, tablesample: 0.5}
              origins_without_last_update: 2
            no_origins_wait: 5m
          hg:
            enabled: false
      """;

  @Test
  void theVisitSchedulerSectionIsKeptInSettingsAndReadBack() throws Exception {
    ConfigFile config = ConfigFile.read(write(VISITS));
    VisitSchedulerConfig visits = config.visitScheduler();
    assertThat(visits.isEnabled()).isTrue();
    assertThat(visits.visitTypes().get("git").policies())
        .containsExactly(
            new VisitSchedulerConfig.Share(VisitPolicy.ALREADY_VISITED_ORDER_BY_LAG, 49, null),
            new VisitSchedulerConfig.Share(VisitPolicy.NEVER_VISITED_OLDEST_UPDATE_FIRST, 49, 0.5),
            new VisitSchedulerConfig.Share(VisitPolicy.ORIGINS_WITHOUT_LAST_UPDATE, 2, null));
    assertThat(visits.visitTypes().get("git").noOriginsWait()).isEqualTo(Duration.ofMinutes(5));
    assertThat(visits.visitTypes().get("hg").enabled()).isFalse();
    assertThat(config.applyTo(store).created()).isEqualTo(3);
    assertThat(VisitSchedulerConfig.fromSettings(store.settingList())).isEqualTo(visits);
    assertThat(ConfigFile.read(write(VISITS)).applyTo(store).unchanged()).isEqualTo(3);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      unknown policy     | 6 | visit_scheduler.visit_types.git.policies.oldest_first | already_visited_order_by_lag: 49|oldest_first: 49
      negative weight    | 6 | visit_scheduler.visit_types.git.policies.already_visited_order_by_lag.weight | lag: 49|lag: -1
      weight not number  | 6 | visit_scheduler.visit_types.git.policies.already_visited_order_by_lag | lag: 49|lag: many
      bad tablesample    | 7 | visit_scheduler.visit_types.git.policies.never_visited_oldest_update_first.tablesample | tablesample: 0.5|tablesample: 150
      per lister policy  | 8 | visit_scheduler.visit_types.git.policies.first_visits_after_listing | origins_without_last_update: 2|first_visits_after_listing: 2
      bad wait           | 9 | visit_scheduler.visit_types.git.no_origins_wait | no_origins_wait: 5m|no_origins_wait: later
      not a boolean      | 2 | visit_scheduler.enabled | enabled: true|enabled: maybe
      unknown key        | 11 | visit_scheduler.visit_types.hg.enable | enabled: false|enable: false
      """)
  void aBadVisitSchedulerSectionIsRefusedWithLineAndSetting(
      String what, int line, String setting, String from, String to) throws Exception {
    Path file = write(VISITS.replace(from, to));
    assertThatThrownBy(() -> ConfigFile.read(file).applyTo(store))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith(file + ":" + line + ": " + setting + ": ")
        .hasMessageNotContaining("\n");
    assertThat(store.settingList()).isEmpty();
  }

  @Test
  void aMissingFileIsNamed() {
    assertThatThrownBy(() -> ConfigFile.read(dir.resolve("absent.yaml")))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("config: no such file ");
  }
}
