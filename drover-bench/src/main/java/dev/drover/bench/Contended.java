package dev.drover.bench;

import dev.drover.bench.Databases.BenchDb;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The burn-down again, while {@link #BURNERS} CPU-bound processes keep the machine's cores busy
 * (the same processes for every system), as on a machine that does other work: a scheduler whose
 * threads and database wait on each other in turn loses more here than one that keeps both busy.
 */
final class Contended implements Workload {
  static final String NAME = "contended";
  static final int BURNERS = 2;

  private final Burndown burndown = new Burndown();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String title() {
    return "burn-down while " + BURNERS + " CPU-bound processes keep the cores busy";
  }

  @Override
  public List<Column> columns() {
    return burndown.columns();
  }

  @Override
  public Plot plot() {
    return new Plot("Burn-down under CPU contention, jobs/s", "jobs_per_s", null, false);
  }

  @Override
  public List<Ratio> ratios(Settings settings) {
    return burndown.ratios(settings);
  }

  @Override
  public Measurement run(SystemUnderTest system, BenchDb db, Settings settings) throws Exception {
    // Warmed up before the burners start, as the burn-down is, so both measure the same JVM.
    Map<String, Number> warmup = Burndown.warmUp(system, db, settings);
    List<Process> burners = new ArrayList<>();
    try {
      for (int i = 0; i < BURNERS; i++) {
        // A shell loop: busy on one core, no memory, no I/O, and nothing to warm up.
        burners.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
      }
      Measurement m = burndown.measure(system, db, settings);
      Map<String, Object> raw = new LinkedHashMap<>(m.raw());
      raw.put("warmup", warmup);
      raw.put("cpu_burners", BURNERS);
      return new Measurement(m.figures(), raw);
    } finally {
      for (Process p : burners) {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
