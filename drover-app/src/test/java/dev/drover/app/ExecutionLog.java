package dev.drover.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The side-effect log that test tasks append to, one line per step of an execution: {@code start
 * <task> <pid> <nanos> [<run>]} when it begins and {@code end <task> <pid> <nanos> [<run>]} when it
 * is done. An execution killed on the way has a start and no end.
 */
final class ExecutionLog {
  /** One execution of a task; {@code end} is null if it never logged its end (it was killed). */
  record Execution(String task, long pid, long start, Long end, String run) {
    boolean complete() {
      return end != null;
    }

    @Override
    public String toString() {
      return "task "
          + task
          + " pid "
          + pid
          + " run "
          + run
          + " ["
          + start
          + ", "
          + (end == null ? "killed" : end)
          + "]";
    }
  }

  private ExecutionLog() {}

  /** The executions in {@code file} by task, each task's in order of start. */
  static Map<String, List<Execution>> byTask(Path file) {
    Map<String, List<Execution>> out = new LinkedHashMap<>();
    for (Execution e : read(file)) {
      out.computeIfAbsent(e.task(), k -> new ArrayList<>()).add(e);
    }
    out.values().forEach(l -> l.sort(Comparator.comparingLong(Execution::start)));
    return out;
  }

  /** Every execution logged in {@code file}, in the order their starts were logged. */
  static List<Execution> read(Path file) {
    List<Execution> done = new ArrayList<>();
    // Open executions by task and pid: a pid is unique among processes alive at once.
    Map<String, Execution> open = new HashMap<>();
    for (String line : lines(file)) {
      String[] f = line.trim().split(" ");
      if (f.length < 4) {
        throw new AssertionError("malformed line in " + file + ": " + line);
      }
      String task = f[1];
      long pid = Long.parseLong(f[2]);
      long nanos = Long.parseLong(f[3]);
      String run = f.length > 4 ? f[4] : null;
      String key = task + " " + pid;
      switch (f[0]) {
        case "start" -> {
          Execution earlier = open.put(key, new Execution(task, pid, nanos, null, run));
          if (earlier != null) {
            done.add(earlier); // killed, and its pid reused for the same task later
          }
        }
        case "end" -> {
          Execution started = open.remove(key);
          if (started == null) {
            throw new AssertionError("end without a start in " + file + ": " + line);
          }
          done.add(new Execution(task, pid, started.start(), nanos, started.run()));
        }
        default -> throw new AssertionError("malformed line in " + file + ": " + line);
      }
    }
    done.addAll(open.values());
    done.sort(Comparator.comparingLong(Execution::start));
    return done;
  }

  /** Pairs of complete executions of one task that overlap in time, described. */
  static List<String> overlaps(Map<String, List<Execution>> byTask) {
    List<String> out = new ArrayList<>();
    for (List<Execution> executions : byTask.values()) {
      List<Execution> complete = executions.stream().filter(Execution::complete).toList();
      for (int i = 1; i < complete.size(); i++) {
        Execution before = complete.get(i - 1);
        Execution after = complete.get(i);
        if (after.start() <= before.end()) {
          out.add(before + " overlaps " + after);
        }
      }
    }
    return out;
  }

  /** The last {@code n} lines of a text file, or a note that it does not exist. */
  static String tail(Path file, int n) {
    if (!Files.exists(file)) {
      return "(no " + file.getFileName() + ")";
    }
    List<String> all = lines(file);
    return String.join("\n", all.subList(Math.max(0, all.size() - n), all.size()));
  }

  static List<String> lines(Path file) {
    if (!Files.exists(file)) {
      return List.of();
    }
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
