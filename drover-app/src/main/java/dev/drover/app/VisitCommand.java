package dev.drover.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.TextLines;
import dev.drover.ValidationException;
import dev.drover.frontier.Cooldowns;
import dev.drover.frontier.IngestReport;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.VisitPolicy;
import dev.drover.frontier.VisitRequest;
import dev.drover.frontier.VisitResult;
import dev.drover.frontier.VisitStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code drover visit}: choose origins to visit, and record how visits went. */
@Command(
    name = "visit",
    description =
        "Grab the next origins to visit by a policy, and ingest visit results into visit stats.",
    subcommands = {VisitCommand.Grab.class, VisitCommand.Ingest.class})
final class VisitCommand {

  @Command(
      name = "grab",
      sortOptions = false,
      description = {
        "Choose the next origins to visit by a policy, honouring the cooldowns, and record "
            + "them as scheduled now.",
        "",
        "Policies: oldest_scheduled_first, stop_after_success, never_visited_oldest_update_first, "
            + "already_visited_order_by_lag, origins_without_last_update, "
            + "first_visits_after_listing (needs --lister). "
            + "The leader of 'drover run' does this by itself for every task type load-<visit "
            + "type>; this command "
            + "only prints the origins."
      })
  static final class Grab extends BaseCommand {
    @Option(
        names = "--visit-type",
        required = true,
        paramLabel = "TYPE",
        description = "The kind of visit, e.g. git.")
    String visitType;

    @Option(
        names = "--count",
        required = true,
        paramLabel = "N",
        description = "Most origins to grab.")
    int count;

    @Option(
        names = "--policy",
        required = true,
        paramLabel = "POLICY",
        description = "How to choose and order them.")
    String policy;

    @Option(names = "--lister", paramLabel = "NAME", description = "Only this lister's origins.")
    String lister;

    @Option(
        names = "--instance",
        paramLabel = "INSTANCE",
        description = "The lister's instance. Default: none.")
    String instance;

    @Option(
        names = "--no-cooldowns",
        description =
            "Ignore every cooldown (12h absolute, 7d scheduled, 14d failed, 31d not found).")
    boolean noCooldowns;

    @Option(
        names = "--tablesample",
        paramLabel = "PERCENT",
        description = "Consider only this percentage of the origins.")
    Double tablesample;

    @Option(names = "--dry-run", description = "Choose, but record nothing.")
    boolean dryRun;

    @Option(
        names = "--explain",
        description =
            "Print how the database chooses these origins (PostgreSQL: the executed plan with"
                + " times and buffers; SQLite: the plan), and record nothing.")
    boolean explain;

    @Mixin JsonOption output;

    @Override
    public Integer call() {
      ValidationException.check(count >= 0, "--count", "must not be negative, got " + count);
      VisitPolicy p;
      try {
        p = VisitPolicy.parse(policy);
      } catch (ValidationException e) {
        throw new ValidationException("--policy", ErrorHandler.problem(e));
      }
      ValidationException.check(
          p != VisitPolicy.FIRST_VISITS_AFTER_LISTING || lister != null,
          "--lister",
          "policy first_visits_after_listing needs --lister");
      ValidationException.check(
          tablesample == null || (tablesample > 0 && tablesample <= 100),
          "--tablesample",
          "must be a percentage in (0, 100], got " + tablesample);
      try (Drover drover = root().open(false)) {
        VisitRequest.Builder request =
            VisitRequest.builder(visitType, count, p)
                .dryRun(dryRun)
                .tablesample(tablesample)
                .cooldowns(noCooldowns ? Cooldowns.NONE : Cooldowns.DEFAULT);
        if (lister != null) {
          request.lister(ListerCommand.find(drover, "--lister", lister, instance).id());
        }
        if (explain) {
          List<String> plan = drover.frontier().originGrabPlan(request.build(), drover.now());
          if (output.json) {
            JsonViews.print(out(), JsonViews.array(plan, TextNode::valueOf));
          } else {
            plan.forEach(out()::println);
          }
          return 0;
        }
        List<ListedOrigin> grabbed =
            drover.frontier().originGrabNextVisits(request.build(), drover.now());
        Map<UUID, Lister> byId = ListerCommand.byId(drover);
        if (output.json) {
          JsonViews.print(out(), JsonViews.array(grabbed, o -> FrontierViews.origin(o, byId)));
        } else {
          if (!grabbed.isEmpty()) {
            FrontierViews.origins(grabbed, byId).print(out());
          }
          out()
              .println(
                  grabbed.size()
                      + " origins grabbed"
                      + (dryRun ? " (dry run: nothing recorded)" : ""));
        }
      }
      return 0;
    }
  }

  @Command(
      name = "ingest",
      description = {
        "Apply visit results from a JSON Lines file to visit stats and queue positions.",
        "",
        "Each line: {\"url\": ..., \"visit_type\": ..., \"date\": ISO-8601, \"status\": "
            + "full|partial|failed|not_found"
            + "|created|ongoing, \"snapshot\": ...}. Results not newer than an origin's last "
            + "visit are ignored. "
            + "Every line is checked first: an invalid line (named with its number) ingests "
            + "nothing. Then the results are applied in order, 1,000 a transaction; a stopped "
            + "ingest is finished by ingesting the same file again (results not newer than the "
            + "last visit are ignored). Visit runs of "
            + "load-<visit type> tasks are ingested by themselves; this is for visits made "
            + "elsewhere."
      })
  static final class Ingest extends BaseCommand {
    static final List<String> KEYS = List.of("url", "visit_type", "date", "status", "snapshot");

    @Parameters(paramLabel = "FILE", description = "The visit results, JSON Lines.")
    Path file;

    @Mixin JsonOption output;

    /** Results per transaction. */
    static final int BATCH = 1_000;

    /**
     * Reads the file twice, holding one batch at a time: first every line is parsed, so an invalid
     * one anywhere ingests nothing; then the results are applied a batch per transaction, in the
     * file's order, so that results for one origin build on each other as in one transaction.
     */
    @Override
    public Integer call() {
      read(batch -> {});
      try (Drover drover = root().open(false)) {
        SplittableRandom random = new SplittableRandom();
        List<IngestReport> batches = new ArrayList<>();
        read(batch -> batches.add(drover.frontier().visitResultsIngest(batch, random)));
        IngestReport report =
            new IngestReport(
                batches.stream().mapToInt(IngestReport::applied).sum(),
                batches.stream().mapToInt(IngestReport::ignored).sum(),
                batches.stream().flatMap(r -> r.disabled().stream()).toList());
        if (output.json) {
          JsonViews.print(out(), FrontierViews.ingestReport(report));
        } else {
          out()
              .println(
                  report.applied()
                      + " results applied, "
                      + report.ignored()
                      + " ignored (not final, or not "
                      + "newer than the last visit), "
                      + report.disabled().size()
                      + " origins disabled");
          report
              .disabled()
              .forEach(k -> out().println("disabled " + k.url() + " (" + k.visitType() + ")"));
        }
      }
      return 0;
    }

    /** Parses the file, handing its results to {@code apply} a batch at a time. */
    private void read(Consumer<List<VisitResult>> apply) {
      List<VisitResult> batch = new ArrayList<>(BATCH);
      try (TextLines lines = TextLines.open("FILE", file)) {
        for (String line = lines.next(); line != null; line = lines.next()) {
          if (!line.isBlank()) {
            batch.add(parse(lines.number(), line));
          }
          if (batch.size() == BATCH) {
            apply.accept(batch);
            batch.clear();
          }
        }
      }
      if (!batch.isEmpty()) {
        apply.accept(batch);
      }
    }

    private VisitResult parse(int n, String text) {
      String at = file + ":" + n;
      JsonNode node;
      try {
        node = Json.readInput(text);
      } catch (JsonProcessingException e) {
        throw new ValidationException(at, "malformed JSON: " + e.getOriginalMessage());
      }
      if (node == null || !node.isObject()) {
        throw new ValidationException(
            at, "expected a JSON object with url, visit_type, date, status and snapshot");
      }
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String key = it.next();
        ValidationException.check(
            KEYS.contains(key),
            at + ": " + key,
            "unknown key (expected " + String.join(", ", KEYS) + ")");
      }
      try {
        return new VisitResult(
            text(node, "url"),
            text(node, "visit_type"),
            Inputs.instant("date", text(node, "date")),
            node.hasNonNull("status")
                ? VisitStatus.parse("status", node.get("status").asText())
                : null,
            text(node, "snapshot"));
      } catch (ValidationException e) {
        throw new ValidationException(at + ": " + e.field(), ErrorHandler.problem(e));
      }
    }

    private static String text(JsonNode node, String key) {
      JsonNode v = node.get(key);
      if (v == null || v.isNull()) {
        return null;
      }
      ValidationException.check(v.isValueNode(), key, "expected a single value");
      return v.asText();
    }
  }
}
