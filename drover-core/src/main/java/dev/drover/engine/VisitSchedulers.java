package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.DroverException;
import dev.drover.Json;
import dev.drover.config.VisitSchedulerConfig;
import dev.drover.model.DurationText;
import dev.drover.model.EventKind;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's visit scheduling: one {@link VisitScheduler} per visit type that has a task type
 * {@code load-<visit type>}, each pass run when its wait is over, on the leader's visit thread
 * ({@link VisitSchedulingThread}), which alone touches this object's state. Settings come from the
 * store ({@link VisitSchedulerConfig}), read again every few seconds, so a {@code drover config
 * apply} reaches the leader wherever it runs. When the runner stops leading, everything is
 * forgotten; the next leader starts with a pass per type.
 */
final class VisitSchedulers {
  private static final Logger log = LoggerFactory.getLogger(VisitSchedulers.class);
  static final String TYPE_PREFIX = "load-";
  private static final Duration SETTINGS_REFRESH = Duration.ofSeconds(5);

  private final Store store;
  private final Clock clock;
  private final RandomGenerator random;
  private final EventLog events;
  private final RunnerStats stats;
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final Map<String, Scheduled> byVisitType = new HashMap<>();
  private VisitSchedulerConfig config = VisitSchedulerConfig.NONE;
  private Instant nextRefresh = Instant.MIN;

  /** A visit type's scheduler and when its next pass is due. */
  private static final class Scheduled {
    final VisitScheduler scheduler;
    final VisitSchedulerOptions options;
    final VisitQueuePace pace = new VisitQueuePace();
    Instant nextPass;

    /** The last pass found the queue nearly full, so origins may be left to schedule. */
    boolean queueFull;

    Scheduled(VisitScheduler scheduler, VisitSchedulerOptions options, Instant nextPass) {
      this.scheduler = scheduler;
      this.options = options;
      this.nextPass = nextPass;
    }
  }

  VisitSchedulers(
      Store store, Clock clock, RandomGenerator random, EventLog events, RunnerStats stats) {
    this.store = store;
    this.clock = clock;
    this.random = random;
    this.events = events;
    this.stats = stats;
  }

  /**
   * Runs the passes that are due, for the visit types of {@code types}; returns the visit tasks
   * created. When the runner has nothing running ({@code runnerIdle}), a pass held back by a full
   * queue runs at once: the queue may have drained, and a runner that exits when idle would
   * otherwise leave before the wait is over.
   */
  int runOnce(Instant now, List<TaskType> types, boolean runnerIdle) {
    refresh(now);
    Set<String> wanted = new HashSet<>();
    int created = 0;
    for (TaskType type : types) {
      String visitType = visitTypeOf(type.name());
      if (visitType == null || !config.isEnabled()) {
        continue;
      }
      VisitSchedulerConfig.VisitType settings = config.visitTypes().get(visitType);
      if (settings != null && !settings.enabled()) {
        continue;
      }
      wanted.add(visitType);
      VisitSchedulerOptions options = options(visitType, settings);
      Scheduled s = byVisitType.get(visitType);
      if (s == null || !s.options.equals(options)) {
        s = new Scheduled(new VisitScheduler(store, clock, random, options), options, now);
        byVisitType.put(visitType, s);
      }
      if (!now.isBefore(s.nextPass) || (runnerIdle && s.queueFull)) {
        created += pass(s, now);
      }
    }
    byVisitType.keySet().retainAll(wanted);
    return created;
  }

  /** Forgets every pass: this runner no longer leads. */
  void pause() {
    byVisitType.clear();
    nextRefresh = Instant.MIN;
  }

  /** When the next pass is due; {@link Instant#MAX} when none is. */
  Instant nextDue() {
    Instant due = Instant.MAX;
    for (Scheduled s : byVisitType.values()) {
      if (s.nextPass.isBefore(due)) {
        due = s.nextPass;
      }
    }
    return due;
  }

  static String visitTypeOf(String taskType) {
    return taskType.startsWith(TYPE_PREFIX) && taskType.length() > TYPE_PREFIX.length()
        ? taskType.substring(TYPE_PREFIX.length())
        : null;
  }

  private int pass(Scheduled s, Instant now) {
    String visitType = s.options.visitType();
    VisitScheduler.Pass pass;
    long wallStart = System.nanoTime();
    long cpuStart = threads.getCurrentThreadCpuTime();
    try {
      pass = s.scheduler.runOnce();
    } catch (RuntimeException e) {
      // A pass that fails (the database is away) is tried again later; the runner goes on.
      log.warn(
          "visit scheduling of {} failed; trying again in {}: {}",
          visitType,
          DurationText.format(s.options.queueFullWait()),
          e.getMessage());
      ObjectNode d = Json.object();
      d.put("visit_type", visitType);
      d.put("error", String.valueOf(e.getMessage()));
      events.add(EventKind.VISIT_SCHEDULING_FAILED, null, d);
      s.nextPass = now.plus(s.options.queueFullWait());
      s.queueFull = false;
      return 0;
    }
    long wallNanos = System.nanoTime() - wallStart;
    stats.countVisitPass(wallNanos, threads.getCurrentThreadCpuTime() - cpuStart);
    s.queueFull = pass.wanted().isEmpty();
    s.pace.observe(now, pass.queued(), pass.tasksCreated(), Duration.ofNanos(wallNanos));
    Duration wait = nextWait(s, pass);
    log.debug(
        "next visit pass of {} in {}: {} of {} queued, {} added, draining {}/s",
        visitType,
        DurationText.format(wait),
        pass.queued(),
        pass.capacity(),
        pass.tasksCreated(),
        Math.round(s.pace.perSecond()));
    // The splay spreads the passes of many visit types; it must not outgrow a short wait.
    long maxSplay = Math.min(s.options.maxSplay().toMillis(), wait.toMillis() / 10);
    s.nextPass = now.plus(wait).plusMillis((long) (random.nextDouble() * maxSplay));
    if (pass.tasksCreated() > 0) {
      ObjectNode d = Json.object();
      d.put("visit_type", visitType);
      d.put("slots", pass.slots());
      d.put("tasks", pass.tasksCreated());
      d.set("grabbed", Json.MAPPER.valueToTree(pass.grabbed()));
      events.add(EventKind.VISITS_SCHEDULED, null, d);
      log.info("scheduled {} visits of {} ({})", pass.tasksCreated(), visitType, pass.grabbed());
    } else if (!pass.wanted().isEmpty()) {
      // The queue had room and every policy came back empty (VisitScheduler logs it): say so in
      // the event log too, or a frontier that never gets visits looks like one that is idle.
      ObjectNode d = Json.object();
      d.put("visit_type", visitType);
      d.put("slots", pass.slots());
      d.set("wanted", Json.MAPPER.valueToTree(pass.wanted()));
      d.put("next_pass_in", DurationText.format(wait));
      events.add(EventKind.NO_ORIGINS_TO_VISIT, null, d);
    }
    return pass.tasksCreated();
  }

  /**
   * After a pass that enqueued visits or found the queue full: when half the queue will be free at
   * the drain measured so far ({@link VisitQueuePace}), at most the queue-full wait. A pass that
   * enqueued visits is followed by another at once until the drain is measured (as the reference
   * loops until the queue is full); a full queue is counted again after {@link
   * VisitQueuePace#PROBE}. After a pass that found no origins, the no-origins wait.
   */
  private static Duration nextWait(Scheduled s, VisitScheduler.Pass pass) {
    Duration longest = s.options.queueFullWait();
    if (pass.tasksCreated() > 0) {
      long queued = pass.queued() + pass.tasksCreated();
      return s.pace.untilRefill(queued, pass.capacity(), Duration.ZERO, longest);
    }
    if (pass.wanted().isEmpty()) {
      return s.pace.untilRefill(pass.queued(), pass.capacity(), VisitQueuePace.PROBE, longest);
    }
    return pass.nextWait();
  }

  private void refresh(Instant now) {
    if (now.isBefore(nextRefresh)) {
      return;
    }
    nextRefresh = now.plus(SETTINGS_REFRESH);
    try {
      config = VisitSchedulerConfig.fromSettings(store.settingList());
    } catch (DroverException e) {
      log.warn("visit scheduler settings not read, the previous ones stay: {}", e.getMessage());
    }
  }

  private static VisitSchedulerOptions options(
      String visitType, VisitSchedulerConfig.VisitType settings) {
    VisitSchedulerOptions options = VisitSchedulerOptions.defaults(visitType);
    if (settings == null) {
      return options;
    }
    if (!settings.policies().isEmpty()) {
      options =
          options.withShares(
              settings.policies().stream()
                  .map(
                      s -> new VisitSchedulerOptions.Share(s.policy(), s.weight(), s.tablesample()))
                  .toList());
    }
    return options.withWaits(settings.queueFullWait(), settings.noOriginsWait(), null);
  }
}
