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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
            + "forked_from_url. Known origins get the new values and a new last_seen. The file "
            + "is all or nothing: "
            + "an invalid line (named with its number) records nothing, unless --skip-invalid."
      })
  static final class Record extends BaseCommand {
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

    @Override
    public Integer call() {
      OriginFile.Contents contents = OriginFile.read(file, lister, instance);
      try (Drover drover = root().open(false)) {
        List<OriginFile.Invalid> invalid = new ArrayList<>(contents.invalid());
        List<ListedOrigin> origins = new ArrayList<>();
        Map<String, Lister> listers = new HashMap<>();
        for (OriginFile.Line l : contents.lines()) {
          String key = l.lister() + "\u0000" + l.instance();
          Lister found =
              listers.computeIfAbsent(
                  key, k -> drover.frontier().listerGet(l.lister(), l.instance()).orElse(null));
          if (found == null) {
            invalid.add(
                new OriginFile.Invalid(
                    l.number(),
                    "lister",
                    "unknown lister '"
                        + l.lister()
                        + "'"
                        + (l.instance().isEmpty() ? "" : " instance '" + l.instance() + "'")
                        + " (add it with 'drover lister add')"));
            continue;
          }
          origins.add(
              new ListedOrigin(
                  found.id(),
                  l.url(),
                  l.visitType(),
                  l.extraLoaderArguments(),
                  l.enabled(),
                  null,
                  null,
                  l.lastUpdate(),
                  l.isFork(),
                  l.forkedFromUrl()));
        }
        invalid.sort((a, b) -> Integer.compare(a.number(), b.number()));
        if (!invalid.isEmpty() && !skipInvalid) {
          OriginFile.Invalid first = invalid.get(0);
          throw new ValidationException(
              first.where(file),
              first.problem()
                  + (invalid.size() > 1
                      ? " (and "
                          + (invalid.size() - 1)
                          + " more invalid line"
                          + (invalid.size() > 2 ? "s" : "")
                          + ")"
                      : "")
                  + "; nothing recorded (--skip-invalid records the valid lines)");
        }
        invalid.forEach(
            i -> err().println("drover: skipped " + i.where(file) + ": " + i.problem()));
        List<ListedOrigin> stored = drover.frontier().originRecord(origins, drover.now());
        Map<UUID, Lister> byId = ListerCommand.byId(drover);
        if (output.json) {
          JsonViews.print(out(), JsonViews.array(stored, o -> FrontierViews.origin(o, byId)));
        } else {
          out()
              .println(
                  stored.size()
                      + " origins recorded"
                      + (invalid.isEmpty()
                          ? ""
                          : ", " + invalid.size() + " invalid lines skipped"));
        }
      }
      return 0;
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
