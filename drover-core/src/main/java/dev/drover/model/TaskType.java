package dev.drover.model;

import static dev.drover.ValidationException.check;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A named kind of work: how often it recurs, how it retries, how it is executed and how many may
 * run at once. Validated on construction; invalid values name their field.
 *
 * @param name unique name, e.g. {@code load-git}
 * @param description free text
 * @param defaultInterval interval a new recurring task starts with; required for recurring tasks
 * @param minInterval lower bound of the adaptive interval
 * @param maxInterval upper bound of the adaptive interval
 * @param backoffFactor an eventful run divides the interval by it, an uneventful one multiplies
 * @param maxQueueLength most scheduled-but-unfinished runs of this type at once
 * @param numRetries retries a failed task gets before it is disabled (one-shot) or rescheduled
 * @param retryDelay wait before a retry; one hour when null
 * @param lease how long a claim holds before it may be rescued
 * @param timeout longest a run may take; none when null
 * @param maxWorkers most workers of this type in one runner
 * @param workerGroup a group that caps several types together, or null
 * @param command argv of a command task, with placeholders; null for a Java handler
 * @param workingDir working directory of a command task, or null
 * @param env extra environment of a command task
 * @param concurrencyKey a keyword argument whose value groups this type's tasks for {@code
 *     maxPerKey}, e.g. {@code owner}; null for no per-key limit
 * @param maxPerKey most tasks of one key value running at once (across all runners); null when
 *     {@code concurrencyKey} is null. Claims of such a type take keys round-robin and ignore
 *     priorities; {@code taskGrabReady} (no leases) does not apply the limit.
 * @param cron when recurring tasks of this type run, instead of the adaptive interval: a Unix cron
 *     expression in a time zone; null for an interval type. A cron type has no intervals and no
 *     backoff factor: an eventful or uneventful run only goes into the history, and the task comes
 *     back at the first fire time after its run ended (missed fire times are not replayed).
 * @param childrenRule how a task of this type that spawned children ends once they are all final
 *     (all succeeded by default)
 * @param runHistory which runs of this type's tasks stay in the run history: every one (the
 *     default) or only those that did not succeed
 */
public record TaskType(
    String name,
    String description,
    Duration defaultInterval,
    Duration minInterval,
    Duration maxInterval,
    double backoffFactor,
    long maxQueueLength,
    int numRetries,
    Duration retryDelay,
    Duration lease,
    Duration timeout,
    int maxWorkers,
    String workerGroup,
    List<String> command,
    String workingDir,
    Map<String, String> env,
    String concurrencyKey,
    Integer maxPerKey,
    CronSchedule cron,
    ChildrenRule childrenRule,
    RunHistory runHistory) {

  public static final long DEFAULT_MAX_QUEUE_LENGTH = 1000;
  public static final Duration DEFAULT_RETRY_DELAY = Duration.ofHours(1);
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);
  public static final int DEFAULT_MAX_WORKERS = 4;

  public TaskType {
    check(name != null && !name.isBlank(), "name", "a task type needs a name");
    check(
        name.matches("[A-Za-z0-9][A-Za-z0-9._:-]*"),
        "name",
        "'" + name + "' may hold only letters, digits and . _ : - (and must not start with them)");
    description = description == null ? "" : description;
    checkPositive("default_interval", defaultInterval);
    checkPositive("min_interval", minInterval);
    checkPositive("max_interval", maxInterval);
    check(
        minInterval == null || maxInterval == null || minInterval.compareTo(maxInterval) <= 0,
        "min_interval",
        "min_interval "
            + DurationText.format(minInterval)
            + " is greater than max_interval "
            + DurationText.format(maxInterval));
    check(
        defaultInterval == null
            || minInterval == null
            || minInterval.compareTo(defaultInterval) <= 0,
        "default_interval",
        "default_interval "
            + DurationText.format(defaultInterval)
            + " is less than min_interval "
            + DurationText.format(minInterval));
    check(
        defaultInterval == null
            || maxInterval == null
            || defaultInterval.compareTo(maxInterval) <= 0,
        "default_interval",
        "default_interval "
            + DurationText.format(defaultInterval)
            + " is greater than max_interval "
            + DurationText.format(maxInterval));
    check(
        backoffFactor >= 1 && backoffFactor <= Limits.MAX_BACKOFF_FACTOR,
        "backoff_factor",
        "must be between 1 and " + (int) Limits.MAX_BACKOFF_FACTOR + ", got " + backoffFactor);
    check(maxQueueLength > 0, "max_queue_length", "must be positive, got " + maxQueueLength);
    check(numRetries >= 0, "num_retries", "must not be negative, got " + numRetries);
    check(retryDelay == null || !retryDelay.isNegative(), "retry_delay", "must not be negative");
    Limits.checkDuration("retry_delay", retryDelay);
    lease = lease == null ? DEFAULT_LEASE : lease;
    checkPositive("lease", lease);
    checkPositive("timeout", timeout);
    check(maxWorkers > 0, "max_workers", "must be positive, got " + maxWorkers);
    check(
        command == null || (!command.isEmpty() && command.stream().allMatch(Objects::nonNull)),
        "command",
        "a command needs at least a program and no empty entries");
    command = command == null ? null : List.copyOf(command);
    env = env == null ? Map.of() : Map.copyOf(env);
    childrenRule = childrenRule == null ? ChildrenRule.ALL_SUCCEEDED : childrenRule;
    runHistory = runHistory == null ? RunHistory.ALL : runHistory;
    check(
        concurrencyKey == null || !concurrencyKey.isBlank(),
        "concurrency_key",
        "must not be blank");
    check(
        concurrencyKey == null || maxPerKey != null,
        "max_per_key",
        "is required with concurrency_key '" + concurrencyKey + "'");
    check(
        maxPerKey == null || concurrencyKey != null,
        "concurrency_key",
        "is required with max_per_key (name the keyword argument that groups the tasks)");
    check(maxPerKey == null || maxPerKey > 0, "max_per_key", "must be positive, got " + maxPerKey);
    if (cron != null) {
      checkNotWithCron("default_interval", defaultInterval == null);
      checkNotWithCron("min_interval", minInterval == null);
      checkNotWithCron("max_interval", maxInterval == null);
      checkNotWithCron("backoff_factor", backoffFactor == 1);
    }
  }

  private static void checkNotWithCron(String field, boolean unset) {
    check(
        unset,
        field,
        "cannot be combined with cron: a cron type's tasks run at the cron's fire times");
  }

  /** Whether recurring tasks of this type can be created: it has a cron or a default interval. */
  public boolean recurs() {
    return cron != null || defaultInterval != null;
  }

  /**
   * The value of this type's concurrency key in {@code arguments}: a string keyword argument as it
   * is, any other JSON value as its JSON text; null when the type has no concurrency key. A JSON
   * null counts as missing.
   *
   * @throws dev.drover.ValidationException when the type has a concurrency key and the argument is
   *     missing
   */
  public String concurrencyKeyOf(TaskArguments arguments) {
    if (concurrencyKey == null) {
      return null;
    }
    JsonNode value = arguments.kwargs().get(concurrencyKey);
    check(
        value != null && !value.isNull(),
        "kwargs." + concurrencyKey,
        "is required: it is the concurrency_key of task type '" + name + "'");
    return value.isTextual() ? value.asText() : value.toString();
  }

  private static void checkPositive(String field, Duration d) {
    check(d == null || (!d.isNegative() && !d.isZero()), field, "must be a positive duration");
    Limits.checkDuration(field, d);
  }

  /** The delay before a retry, with the reference default of one hour. */
  public Duration effectiveRetryDelay() {
    return retryDelay == null ? DEFAULT_RETRY_DELAY : retryDelay;
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  public Builder toBuilder() {
    return new Builder(name)
        .description(description)
        .defaultInterval(defaultInterval)
        .minInterval(minInterval)
        .maxInterval(maxInterval)
        .backoffFactor(backoffFactor)
        .maxQueueLength(maxQueueLength)
        .numRetries(numRetries)
        .retryDelay(retryDelay)
        .lease(lease)
        .timeout(timeout)
        .maxWorkers(maxWorkers)
        .workerGroup(workerGroup)
        .command(command)
        .workingDir(workingDir)
        .env(env)
        .concurrencyKey(concurrencyKey)
        .maxPerKey(maxPerKey)
        .cronSchedule(cron)
        .childrenRule(childrenRule)
        .runHistory(runHistory);
  }

  /** Builds a {@link TaskType} with the documented defaults for whatever is not set. */
  public static final class Builder {
    private final String name;
    private String description = "";
    private Duration defaultInterval;
    private Duration minInterval;
    private Duration maxInterval;
    private double backoffFactor = 1.0;
    private long maxQueueLength = DEFAULT_MAX_QUEUE_LENGTH;
    private int numRetries;
    private Duration retryDelay;
    private Duration lease = DEFAULT_LEASE;
    private Duration timeout;
    private int maxWorkers = DEFAULT_MAX_WORKERS;
    private String workerGroup;
    private List<String> command;
    private String workingDir;
    private Map<String, String> env = Map.of();
    private String concurrencyKey;
    private Integer maxPerKey;
    private String cronExpression;
    private String timeZone;
    private ChildrenRule childrenRule;
    private RunHistory runHistory;

    private Builder(String name) {
      this.name = name;
    }

    public Builder description(String v) {
      description = v;
      return this;
    }

    public Builder defaultInterval(Duration v) {
      defaultInterval = v;
      return this;
    }

    public Builder minInterval(Duration v) {
      minInterval = v;
      return this;
    }

    public Builder maxInterval(Duration v) {
      maxInterval = v;
      return this;
    }

    /** Sets default, min and max interval at once. */
    public Builder intervals(Duration def, Duration min, Duration max) {
      return defaultInterval(def).minInterval(min).maxInterval(max);
    }

    public Builder backoffFactor(double v) {
      backoffFactor = v;
      return this;
    }

    public Builder maxQueueLength(long v) {
      maxQueueLength = v;
      return this;
    }

    public Builder numRetries(int v) {
      numRetries = v;
      return this;
    }

    public Builder retryDelay(Duration v) {
      retryDelay = v;
      return this;
    }

    public Builder lease(Duration v) {
      lease = v;
      return this;
    }

    public Builder timeout(Duration v) {
      timeout = v;
      return this;
    }

    public Builder maxWorkers(int v) {
      maxWorkers = v;
      return this;
    }

    public Builder workerGroup(String v) {
      workerGroup = v;
      return this;
    }

    public Builder command(List<String> v) {
      command = v;
      return this;
    }

    public Builder workingDir(String v) {
      workingDir = v;
      return this;
    }

    public Builder env(Map<String, String> v) {
      env = v;
      return this;
    }

    public Builder concurrencyKey(String v) {
      concurrencyKey = v;
      return this;
    }

    public Builder maxPerKey(Integer v) {
      maxPerKey = v;
      return this;
    }

    /**
     * At most {@code max} tasks with the same value of keyword argument {@code key} run at once.
     */
    public Builder perKeyLimit(String key, int max) {
      return concurrencyKey(key).maxPerKey(max);
    }

    /** Runs recurring tasks at the fire times of a Unix cron expression, in UTC. */
    public Builder cron(String expression) {
      return cron(expression, null);
    }

    /**
     * Runs recurring tasks at the fire times of a Unix cron expression read in an IANA time zone
     * ({@code Europe/Paris}; UTC when null).
     */
    public Builder cron(String expression, String zone) {
      cronExpression = expression;
      timeZone = zone;
      return this;
    }

    /** How a parent of this type ends once its children are all final. */
    public Builder childrenRule(ChildrenRule v) {
      childrenRule = v;
      return this;
    }

    /** Which runs stay in the history: every one by default. */
    public Builder runHistory(RunHistory v) {
      runHistory = v;
      return this;
    }

    public Builder cronSchedule(CronSchedule schedule) {
      return schedule == null
          ? cron(null, null)
          : cron(schedule.expression(), schedule.zone().getId());
    }

    /** The zone of the cron expression (an IANA id); UTC when not set. */
    public Builder timeZone(String zone) {
      timeZone = zone;
      return this;
    }

    public TaskType build() {
      check(
          timeZone == null || cronExpression != null,
          "time_zone",
          "applies only to a cron schedule (set cron too)");
      return new TaskType(
          name,
          description,
          defaultInterval,
          minInterval,
          maxInterval,
          backoffFactor,
          maxQueueLength,
          numRetries,
          retryDelay,
          lease,
          timeout,
          maxWorkers,
          workerGroup,
          command,
          workingDir,
          env,
          concurrencyKey,
          maxPerKey,
          cronExpression == null ? null : CronSchedule.of(cronExpression, timeZone),
          childrenRule,
          runHistory);
    }
  }
}
