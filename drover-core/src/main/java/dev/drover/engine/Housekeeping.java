package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.DroverException;
import dev.drover.Json;
import dev.drover.config.ConfigFile;
import dev.drover.config.ConfigReport;
import dev.drover.model.DurationText;
import dev.drover.model.EventKind;
import dev.drover.model.RunnerRecord;
import dev.drover.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Once a second (and on a reload request): heartbeats the runner's own row, notices when it must
 * stop (a newcomer takes over the data dir, or another runner pruned it as dead), re-applies the
 * configuration file if it changed, and re-reads the task types. Loop thread only.
 */
final class Housekeeping {
  private static final Logger log = LoggerFactory.getLogger(Housekeeping.class);
  static final Duration INTERVAL = Duration.ofSeconds(1);

  /** Why and how soon the runner must stop. */
  record StopRequest(String reason, Duration grace) {}

  private final Store store;
  private final String owner;
  private final TaskTypes types;
  private final ConfigReloader reloader;
  private final IntConsumer totalWorkersChanged;
  private final boolean totalWorkersFixed;
  private final EventLog events;
  private Instant next = Instant.MIN;

  Housekeeping(
      Store store,
      RunnerOptions options,
      TaskTypes types,
      IntConsumer totalWorkersChanged,
      EventLog events) {
    this.store = store;
    this.owner = options.owner();
    this.types = types;
    this.reloader = options.configFile() == null ? null : new ConfigReloader(options.configFile());
    this.totalWorkersChanged = totalWorkersChanged;
    this.totalWorkersFixed = options.totalWorkersFixed();
    this.events = events;
  }

  Instant nextDue() {
    return next;
  }

  /**
   * Does the housekeeping if it is due or {@code reload} is asked for, running {@code between}
   * after reading the types (the loop's other work that must not wait for all of it); returns a
   * stop request if the runner must stop.
   */
  Optional<StopRequest> runOnce(Instant now, boolean reload, Runnable between) {
    if (now.isBefore(next) && !reload) {
      return Optional.empty();
    }
    types.refresh(); // first, so that a failing pass stops before it acts on stale types
    between.run();
    Optional<RunnerRecord> me = store.runners().heartbeat(owner, now);
    if (reload(reload)) {
      types.refresh();
    }
    next = now.plus(INTERVAL);
    if (me.isEmpty()) {
      // Another runner took us for dead and rescued our leases; work in hand may run twice.
      log.error("runner {} was pruned from the process table (was it paused?); stopping", owner);
      return Optional.of(new StopRequest("pruned from the process table", Duration.ZERO));
    }
    RunnerRecord r = me.get();
    if (r.stopRequestedBy() == null) {
      return Optional.empty();
    }
    Duration grace = Duration.between(now, r.stopDeadline());
    grace = grace.isNegative() ? Duration.ZERO : grace;
    log.info(
        "runner {} takes over this data dir; finishing running work within {}",
        r.stopRequestedBy(),
        DurationText.format(grace));
    return Optional.of(new StopRequest("taken over by runner " + r.stopRequestedBy(), grace));
  }

  /** Re-applies the configuration file if it changed or {@code forced}; true if applied. */
  private boolean reload(boolean forced) {
    if (reloader == null) {
      return false;
    }
    ConfigReport report;
    ConfigFile config;
    try {
      Optional<ConfigFile> changed = reloader.changed(forced);
      if (changed.isEmpty()) {
        return false;
      }
      config = changed.get();
      report = config.applyTo(store);
    } catch (DroverException e) {
      reloader.seen(); // an invalid file: said once, not at every check
      log.warn("configuration not reloaded, the previous one stays: {}", e.getMessage());
      ObjectNode d = Json.object();
      d.put("file", reloader.file().toString());
      d.put("error", e.getMessage());
      events.add(EventKind.CONFIG_RELOAD_FAILED, d);
      return false;
    }
    reloader.seen();
    String total = config.limits().get("total_workers");
    if (total != null && !totalWorkersFixed) {
      totalWorkersChanged.accept(Integer.parseInt(total));
    }
    log.info(
        "reloaded {}: {} created, {} updated, {} unchanged",
        reloader.file(),
        report.created(),
        report.updated(),
        report.unchanged());
    ObjectNode d = Json.object();
    d.put("file", reloader.file().toString());
    d.put("created", report.created());
    d.put("updated", report.updated());
    d.put("unchanged", report.unchanged());
    if (total != null) {
      d.put("total_workers", Integer.parseInt(total));
    }
    events.add(EventKind.CONFIG_RELOADED, d);
    return true;
  }
}
