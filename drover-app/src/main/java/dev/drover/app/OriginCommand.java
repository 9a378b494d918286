package dev.drover.app;

import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginPage;
import dev.drover.frontier.OriginQuery;
import dev.drover.frontier.OriginVisitStats;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code drover origin}: the origins listers listed, and their visit stats. */
@Command(
    name = "origin",
    description = "Record, list and show listed origins (what gets visited) and their visit stats.",
    subcommands = {
      OriginCommand.Record.class,
      OriginCommand.ListOrigins.class,
      OriginCommand.Show.class
    })
final class OriginCommand {

  @Command(
      name = "record",
      sortOptions = false,
      description = {
        "Record listed origins from a file: JSON Lines, or CSV with a header row if FILE ends "
            + "in .csv.",
        "",
        "Keys (columns): url and visit_type (required), lister and instance (default --lister, "
            + "--instance), "
            + "enabled (default true), last_update (ISO-8601), extra_loader_arguments (a JSON "
            + "object), is_fork, "
            + "forked_from_url. Known origins get the new values and a new last_seen. Every line "
            + "is checked first: an invalid line (named with its number) records nothing, unless "
            + "--skip-invalid. Then the origins are recorded in batches of 1,000, each committed "
            + "on its own, so grabs and runs go on meanwhile; a recording stopped part way is "
            + "finished by recording the same file again."
      })
  static final class Record extends BaseCommand {
    /** Origins per transaction, as a lister records a page. */
    static final int BATCH = 1_000;

    @Parameters(paramLabel = "FILE", description = "The origins, .jsonl or .csv.")
    Path file;

    @Option(
        names = "--lister",
        paramLabel = "NAME",
        description = "The lister of lines that name none.")
    String lister;

    @Option(
        names = "--instance",
        paramLabel = "INSTANCE",
        description = "Its instance. Default: none.")
    String instance;

    @Option(
        names = "--skip-invalid",
        description = "Record the valid lines and report the invalid ones on stderr.")
    boolean skipInvalid;

    @Mixin JsonOption output;

    /**
     * Reads the file twice, holding one batch at a time: a file of millions fits any heap. The
     * first reading checks every line and looks up its lister, so that an invalid line anywhere
     * records nothing. The second records the valid lines a batch per transaction: on SQLite a
     * runner on the same data dir would otherwise wait for the whole file, past its busy timeout,
     * and on PostgreSQL the visit scheduler's grabs would. A known origin is only updated by a
     * recording, so recording the file again finishes one stopped part way.
     */
    @Override
    public Integer call() {
      try (OriginFile first = OriginFile.open(file, lister, instance);
          Drover drover = root().open(false)) {
        Checked checked = check(first, drover);
        if (!checked.invalid.isEmpty() && !skipInvalid) {
          OriginFile.Invalid bad = checked.invalid.get(0);
          int more = checked.invalid.size() - 1;
          throw new ValidationException(
              bad.where(file),
              bad.problem()
                  + (more > 0
                      ? " (and " + more + " more invalid line" + (more > 1 ? "s" : "") + ")"
                      : "")
                  + "; nothing recorded (--skip-invalid records the valid lines)");
        }
        checked.invalid.forEach(
            i -> err().println("drover: skipped " + i.where(file) + ": " + i.problem()));
        err().flush();
        long recorded = record(drover, checked);
        if (!output.json) {
          out()
              .println(
                  recorded
                      + " origins recorded"
                      + (checked.invalid.isEmpty()
                          ? ""
                          : ", " + checked.invalid.size() + " invalid lines skipped"));
        }
      }
      return 0;
    }

    /** The first reading: the invalid lines, and every named lister found or not (null). */
    private record Checked(
        List<OriginFile.Invalid> invalid,
        BitSet invalidLines,
        Map<String, Lister> listers,
        long valid) {}

    private Checked check(OriginFile in, Drover drover) {
      List<OriginFile.Invalid> invalid = new ArrayList<>();
      BitSet invalidLines = new BitSet();
      Map<String, Lister> listers = new HashMap<>();
      long valid = 0;
      try (FileProgress progress =
          progress(n -> String.format(Locale.ROOT, "%,d lines checked", n))) {
        long read = 0;
        for (OriginFile.Entry e = in.next(); e != null; e = in.next()) {
          OriginFile.Invalid bad =
              e instanceof OriginFile.Line l
                  ? l.unrecordable(l.lister(drover, listers))
                  : (OriginFile.Invalid) e;
          if (bad == null) {
            valid++;
          } else {
            invalid.add(bad);
            invalidLines.set(bad.number());
          }
          if (++read % BATCH == 0) {
            progress.update(read);
          }
        }
      }
      return new Checked(invalid, invalidLines, listers, valid);
    }

    /** The second reading: records the valid lines a batch at a time; returns how many. */
    private long record(Drover drover, Checked checked) {
      Instant now = drover.now();
      Map<UUID, Lister> byId = output.json ? ListerCommand.byId(drover) : Map.of();
      List<ListedOrigin> batch = new ArrayList<>(BATCH);
      long recorded = 0;
      try (OriginFile in = OriginFile.open(file, lister, instance);
          FileProgress progress =
              progress(
                  n ->
                      String.format(Locale.ROOT, "%,d of %,d origins recorded", n, checked.valid));
          JsonViews.ArrayPrinter json = output.json ? new JsonViews.ArrayPrinter(out()) : null) {
        for (OriginFile.Entry e = in.next(); e != null; e = in.next()) {
          if (checked.invalidLines.get(e.number())) {
            continue;
          }
          if (!(e instanceof OriginFile.Line l) || checked.listers.get(l.listerKey()) == null) {
            throw new ValidationException(
                "FILE", file + " changed while it was recorded (line " + e.number() + ")");
          }
          batch.add(l.origin(checked.listers.get(l.listerKey())));
          if (batch.size() == BATCH) {
            recorded += write(drover, batch, now, json, byId);
            progress.update(recorded);
          }
        }
        recorded += write(drover, batch, now, json, byId);
      } catch (RuntimeException e) {
        if (recorded > 0) {
          err()
              .println(
                  "drover: "
                      + recorded
                      + " origins were recorded before this failure; record the "
                      + "same file again to finish");
          err().flush();
        }
        throw e;
      }
      return recorded;
    }

    /** Records {@code batch} in one transaction, prints it with --json, and empties it. */
    private static int write(
        Drover drover,
        List<ListedOrigin> batch,
        Instant now,
        JsonViews.ArrayPrinter json,
        Map<UUID, Lister> byId) {
      if (batch.isEmpty()) {
        return 0;
      }
      List<ListedOrigin> stored = drover.frontier().originRecord(batch, now);
      if (json != null) {
        stored.forEach(o -> json.add(FrontierViews.origin(o, byId)));
      }
      batch.clear();
      return stored.size();
    }

    private FileProgress progress(LongFunction<String> done) {
      return new FileProgress(err(), System.console() != null, System::nanoTime, done, "");
    }
  }

  @Command(
      name = "list",
      sortOptions = false,
      description = "List listed origins, a page at a time, by lister, url and visit type.")
  static final class ListOrigins extends BaseCommand {
    @Option(names = "--lister", paramLabel = "NAME", description = "Only this lister's origins.")
    String lister;

    @Option(
        names = "--instance",
        paramLabel = "INSTANCE",
        description = "The lister's instance. Default: none.")
    String instance;

    @Option(names = "--url", paramLabel = "URL", description = "Only this url.")
    String url;

    @Option(
        names = "--enabled",
        paramLabel = "yes|no|all",
        description = "Enabled origins (yes, the default), disabled ones (no) or both (all).")
    String enabled = "yes";

    @Option(names = "--limit", paramLabel = "N", description = "Page size. Default: 100.")
    int limit = 100;

    @Option(
        names = "--page",
        paramLabel = "TOKEN",
        description = "The next-page token a previous listing printed.")
    String page;

    @Mixin JsonOption output;

    @Override
    public Integer call() {
      ValidationException.check(limit > 0, "--limit", "must be positive, got " + limit);
      Boolean onlyEnabled =
          switch (enabled) {
            case "yes" -> true;
            case "no" -> false;
            case "all" -> null;
            default ->
                throw new ValidationException(
                    "--enabled", "expected yes, no or all, got '" + enabled + "'");
          };
      try (Drover drover = root().open(false)) {
        UUID listerId =
            lister == null ? null : ListerCommand.find(drover, "--lister", lister, instance).id();
        OriginPage result =
            drover
                .frontier()
                .originList(new OriginQuery(listerId, url, List.of(), onlyEnabled, limit, page));
        Map<UUID, Lister> byId = ListerCommand.byId(drover);
        if (output.json) {
          JsonViews.print(
              out(), JsonViews.array(result.origins(), o -> FrontierViews.origin(o, byId)));
          if (result.nextPageToken() != null) {
            err().println("more: --page " + result.nextPageToken());
          }
        } else if (result.origins().isEmpty()) {
          out().println("no origins (record some with 'drover origin record FILE')");
        } else {
          FrontierViews.origins(result.origins(), byId).print(out());
          if (result.nextPageToken() != null) {
            out().println("more: --page " + result.nextPageToken());
          }
        }
      }
      return 0;
    }
  }

  @Command(
      name = "show",
      description = "Show one origin: where it is listed, and its visit stats per visit type.")
  static final class Show extends BaseCommand {
    @Parameters(paramLabel = "URL", description = "The origin's url.")
    String url;

    @Mixin JsonOption output;

    @Override
    public Integer call() {
      try (Drover drover = root().open(false)) {
        List<ListedOrigin> listed = new ArrayList<>();
        String token = null;
        do {
          OriginPage p =
              drover.frontier().originList(OriginQuery.ENABLED.enabled(null).url(url).page(token));
          listed.addAll(p.origins());
          token = p.nextPageToken();
        } while (token != null);
        List<OriginKey> keys = listed.stream().map(ListedOrigin::key).distinct().toList();
        List<OriginVisitStats> stats = drover.frontier().visitStatsGet(keys);
        ValidationException.check(
            !listed.isEmpty() || !stats.isEmpty(), "URL", "unknown origin '" + url + "'");
        Map<UUID, Lister> byId = ListerCommand.byId(drover);
        if (output.json) {
          var doc = Json.object();
          doc.put("url", url);
          doc.set("listed", JsonViews.array(listed, o -> FrontierViews.origin(o, byId)));
          doc.set("visit_stats", JsonViews.array(stats, FrontierViews::stats));
          JsonViews.print(out(), doc);
        } else {
          FrontierViews.origins(listed, byId).print(out());
          out().println();
          if (stats.isEmpty()) {
            out().println("never scheduled nor visited");
          } else {
            FrontierViews.stats(stats).print(out());
          }
        }
      }
      return 0;
    }
  }
}
