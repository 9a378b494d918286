package dev.drover.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.Outcome;
import dev.drover.TaskContext;
import dev.drover.TaskHandler;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The three Java handlers of {@code drover demo archive}, after ArchiveBox's crawl, snapshot and
 * archive results: a crawl walks the local site and spawns a snapshot per page; a snapshot keeps a
 * copy of its page in its run directory and spawns one result per extractor; a result extracts one
 * thing from the page. Pages are read from the site folder, never from a network.
 */
final class ArchiveHandlers {
  static final String CRAWL = "archive-crawl";
  static final String SNAPSHOT = "archive-snapshot";
  static final String RESULT = "archive-result";
  static final List<String> EXTRACTORS = List.of("title", "text", "links", "sha256");

  private ArchiveHandlers() {}

  /** The handlers by task type, reading pages under {@code site}. */
  static Map<String, TaskHandler> all(Path site) {
    return Map.of(
        CRAWL, c -> crawl(site, c), SNAPSHOT, c -> snapshot(site, c), RESULT, c -> result(site, c));
  }

  /** Breadth first from args[0], following links to local pages; one snapshot per page. */
  static Outcome crawl(Path site, TaskContext c) throws IOException {
    String start = c.arguments().args().path(0).asText(ArchiveSite.START);
    Set<String> seen = new LinkedHashSet<>();
    Deque<String> queue = new ArrayDeque<>(List.of(start));
    while (!queue.isEmpty()) {
      String page = queue.poll();
      Path file = site.resolve(page).normalize();
      if (!file.startsWith(site) || !Files.isRegularFile(file) || !seen.add(page)) {
        continue;
      }
      Path dir = Path.of(page).getParent();
      for (String link : ArchiveSite.links(Files.readString(file, StandardCharsets.UTF_8))) {
        Path target = dir == null ? Path.of(link) : dir.resolve(link);
        queue.add(target.normalize().toString().replace('\\', '/'));
      }
    }
    List<NewTask> snapshots = new ArrayList<>();
    seen.forEach(p -> snapshots.add(NewTask.oneshot(SNAPSHOT, TaskArguments.of(List.of(p), null))));
    ObjectNode result = Json.object();
    result.put("pages", seen.size());
    return new Outcome(dev.drover.model.TaskRunStatus.EVENTFUL, result).spawning(snapshots);
  }

  /** Keeps a copy of the page in the run directory; one result task per extractor. */
  static Outcome snapshot(Path site, TaskContext c) throws IOException {
    String page = c.arguments().args().path(0).asText();
    Path file = site.resolve(page).normalize();
    if (!file.startsWith(site) || !Files.isRegularFile(file)) {
      return Outcome.notFound("no page " + page);
    }
    Path copy = Files.copy(file, c.runDir().resolve("page.html"));
    ObjectNode result = Json.object();
    result.put("bytes", Files.size(copy));
    List<NewTask> results = new ArrayList<>();
    for (String extractor : EXTRACTORS) {
      results.add(
          NewTask.oneshot(RESULT, TaskArguments.of(List.of(page), Map.of("extractor", extractor))));
    }
    return new Outcome(dev.drover.model.TaskRunStatus.EVENTFUL, result).spawning(results);
  }

  /** One extractor on one page; the value goes in the run's result. */
  static Outcome result(Path site, TaskContext c) throws IOException {
    String page = c.arguments().args().path(0).asText();
    String extractor = c.arguments().kwargs().path("extractor").asText();
    Path file = site.resolve(page).normalize();
    if (!file.startsWith(site) || !Files.isRegularFile(file)) {
      return Outcome.notFound("no page " + page);
    }
    String html = Files.readString(file, StandardCharsets.UTF_8);
    ObjectNode result = Json.object();
    switch (extractor) {
      case "title" -> result.put("title", ArchiveSite.title(html));
      case "text" -> result.put("text", ArchiveSite.text(html));
      case "links" -> ArchiveSite.links(html).forEach(result.putArray("links")::add);
      case "sha256" -> result.put("sha256", sha256(Files.readAllBytes(file)));
      default -> {
        return Outcome.failed("unknown extractor '" + extractor + "'");
      }
    }
    return new Outcome(dev.drover.model.TaskRunStatus.EVENTFUL, result);
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }
}
