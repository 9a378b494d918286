package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Drover;
import dev.drover.model.Task;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskStatus;
import dev.drover.store.StoreLocation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code drover demo archive}: a crawl, its snapshots and their results, sealed; twice. */
class DemoArchiveIT {
  @TempDir Path tmp;

  @Test
  void archivesTheSiteAsATreeAndSealsTheCrawl() {
    Path data = tmp.resolve("data");
    DroverCli.Result first = DroverCli.in(tmp).run("--data-dir", data, "demo", "archive").ok();
    assertThat(first.stdout())
        .contains(
            "site: 5 linked pages",
            "tree of task 1: 26 tasks, 26 done",
            "1 archive-crawl done (5/5 children final)",
            "archive-snapshot done (4/4 children final) [\"posts/second.html\"]",
            "{\"extractor\":\"sha256\"}");

    DroverCli.Result second = DroverCli.in(tmp).run("--data-dir", data, "demo", "archive").ok();
    assertThat(second.stdout()).contains("tree of task 27: 26 tasks, 26 done");
    try (Drover drover = Drover.open(StoreLocation.dataDir(data))) {
      List<Task> all = drover.taskSearch(TaskQuery.all());
      assertThat(all).hasSize(52).extracting(Task::status).containsOnly(TaskStatus.COMPLETED);
      Task title =
          drover.taskChildren(drover.taskChildren(1, 0, 1).get(0).id(), 0, 10).stream()
              .filter(t -> t.arguments().kwargs().path("extractor").asText().equals("title"))
              .findFirst()
              .orElseThrow();
      assertThat(
              drover
                  .taskRuns(List.of(title.id()), null, 1)
                  .get(0)
                  .metadata()
                  .at("/result/title")
                  .asText())
          .isEqualTo("Home");
    }
  }
}
