package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.model.DurationText;
import dev.drover.model.EventKind;
import dev.drover.model.RunnerRecord;
import dev.drover.store.RunnerTable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One data dir, one active runner. A newcomer registers as waiting and becomes active only when no
 * runner is active at its gate; the unique index {@code runner_one_active_per_gate} makes that hold
 * under any race. If one is active, the newcomer either takes over — asks it to stop, and waits for
 * it to drain and leave within the takeover grace, killing it after that if it is on this host —
 * or, as a standby, waits for it to leave on its own. An active runner found dead (its process
 * gone, or its heartbeat too old on another host) is cleared away at once, so a runner killed with
 * SIGKILL never blocks its successor.
 */
final class Gate {
  private static final Logger log = LoggerFactory.getLogger(Gate.class);
  private static final Duration POLL = Duration.ofMillis(100);

  /** A waiting runner heartbeats too, so a leader elsewhere does not take it for dead. */
  private static final Duration HEARTBEAT = Duration.ofSeconds(1);

  /** How long past its deadline a runner that was asked to stop gets before it is killed. */
  private static final Duration KILL_MARGIN = Duration.ofSeconds(1);

  private final RunnerTable table;
  private final Clock clock;
  private final String me;
  private final RunnerOptions options;
  private final ProcessIdentity self;
  private final DeadRunners dead;
  private final EventLog events;

  Gate(
      RunnerTable table,
      Clock clock,
      RunnerOptions options,
      ProcessIdentity self,
      DeadRunners dead,
      EventLog events) {
    this.table = table;
    this.clock = clock;
    this.me = options.owner();
    this.options = options;
    this.self = self;
    this.dead = dead;
    this.events = events;
  }

  /** Blocks until this runner is active at its gate; false if {@code cancelled} first. */
  boolean enter(BooleanSupplier cancelled) throws InterruptedException {
    String displaced = null;
    boolean toldStandby = false;
    Instant nextHeartbeat = Instant.MIN;
    while (!cancelled.getAsBoolean()) {
      Instant now = clock.instant();
      if (!now.isBefore(nextHeartbeat)) {
        table.heartbeat(me, now);
        nextHeartbeat = now.plus(HEARTBEAT);
      }
      if (table.activate(me, now)) {
        if (displaced != null) {
          ObjectNode d = Json.object();
          d.put("from", displaced);
          events.add(EventKind.RUNNER_TOOK_OVER, null, d);
        }
        return true;
      }
      Optional<RunnerRecord> active = table.active(options.gate());
      if (active.isPresent()) {
        RunnerRecord a = active.get();
        if (dead.isDead(a, now)) {
          dead.bury(a, now);
          displaced = a.name();
          continue;
        }
        if (options.standby()) {
          if (!toldStandby) {
            log.info(
                "standing by: runner {} (pid {}) is active on this data dir", a.name(), a.pid());
            toldStandby = true;
          }
        } else if (!me.equals(a.stopRequestedBy())) {
          log.info(
              "taking over from runner {} (pid {}): it has {} to finish its work",
              a.name(),
              a.pid(),
              DurationText.format(options.takeoverGrace()));
          table.requestStop(a.name(), me, now.plus(options.takeoverGrace()));
          ObjectNode d = Json.object();
          d.put("from", a.name());
          d.put("grace_ms", options.takeoverGrace().toMillis());
          events.add(EventKind.TAKEOVER_REQUESTED, null, d);
          displaced = a.name();
        } else if (self.sameHost(a)
            && a.pid() != self.pid()
            && now.isAfter(a.stopDeadline().plus(KILL_MARGIN))) {
          dead.kill(a, now);
          continue;
        }
      }
      events.flush();
      Thread.sleep(POLL.toMillis());
    }
    return false;
  }
}
