package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Task creation in large batches, which the store writes in chunks of {@link TaskInserts#CHUNK}:
 * de-duplication within the batch and against stored rows, results in input order, and a bad task
 * anywhere refusing the whole batch. Mixed into {@link StoreContractTest}, so it runs on every
 * database.
 */
interface TaskBatchContract {
  Store store();

  /** More tasks than fit in two chunks, so a batch spans three statements of each kind. */
  int LARGE = TaskInserts.CHUNK * 2 + 137;

  private static Instant t0() {
    return LeaseContract.T0;
  }

  private Store withTypes() {
    Store s = store();
    s.taskTypeCreate(
        TaskType.builder("sync")
            .intervals(Duration.ofDays(1), Duration.ofHours(1), Duration.ofDays(2))
            .build());
    s.taskTypeCreate(TaskType.builder("build").perKeyLimit("owner", 2).build());
    return s;
  }

  private static NewTask oneshot(int i) {
    return NewTask.oneshot("sync", TaskArguments.of(List.of("item-" + i), Map.of()))
        .withNextRun(t0());
  }

  private static NewTask recurring(int i) {
    return NewTask.recurring("sync", TaskArguments.of(List.of("item-" + i), Map.of()));
  }

  @Test
  default void aLargeBatchReturnsOneTaskPerInputInInputOrder() {
    Store s = withTypes();
    List<NewTask> batch =
        IntStream.range(0, LARGE)
            .mapToObj(
                i ->
                    i % 2 == 0
                        ? oneshot(LARGE - i)
                        : recurring(LARGE - i).withPriority(TaskPriority.HIGH))
            .toList();
    List<Task> created = s.taskCreate(batch, t0());

    assertThat(created).hasSize(LARGE);
    for (int i = 0; i < LARGE; i++) {
      NewTask in = batch.get(i);
      Task out = created.get(i);
      assertThat(out.arguments().toJson()).as("task %d", i).isEqualTo(in.arguments().toJson());
      assertThat(out.policy()).as("task %d", i).isEqualTo(in.policy());
      assertThat(out.priority()).as("task %d", i).isEqualTo(in.priority());
    }
    assertThat(created.stream().map(Task::id).distinct()).hasSize(LARGE);
    assertThat(s.taskSearch(TaskQuery.all())).containsExactlyInAnyOrderElementsOf(created);
  }

  @Test
  default void duplicatesWithinALargeBatchAndAgainstStoredTasksMapToOneTask() {
    Store s = withTypes();
    // Items 0..299 and LARGE+100..LARGE+299 are stored; items 200..LARGE+199 are then asked for
    // twice each, in two halves of the batch, so duplicates fall in other chunks than their first
    // occurrence, and stored duplicates are met in the first chunk and in the last.
    List<Integer> storedItems =
        IntStream.concat(IntStream.range(0, 300), IntStream.range(LARGE + 100, LARGE + 300))
            .boxed()
            .toList();
    List<Task> stored =
        s.taskCreate(storedItems.stream().map(TaskBatchContract::oneshot).toList(), t0());
    Map<Integer, Task> storedByItem = new HashMap<>();
    for (int k = 0; k < storedItems.size(); k++) {
      storedByItem.put(storedItems.get(k), stored.get(k));
    }

    List<NewTask> batch = new ArrayList<>();
    IntStream.range(200, 200 + LARGE).forEach(i -> batch.add(oneshot(i)));
    IntStream.range(0, LARGE).map(k -> 200 + LARGE - 1 - k).forEach(i -> batch.add(oneshot(i)));
    List<Task> created = s.taskCreate(batch, t0());

    assertThat(created).hasSize(2 * LARGE);
    for (int k = 0; k < LARGE; k++) {
      int item = 200 + k;
      Task first = created.get(k);
      Task again = created.get(2 * LARGE - 1 - k);
      assertThat(again).as("item %d", item).isEqualTo(first);
      assertThat(first.arguments().args().get(0).asText()).isEqualTo("item-" + item);
      if (storedByItem.containsKey(item)) {
        assertThat(first).as("item %d", item).isEqualTo(storedByItem.get(item));
      }
    }
    // Stored: 0..299 and LARGE+100..LARGE+299; new: 300..LARGE+99.
    assertThat(s.taskSearch(TaskQuery.all())).hasSize(300 + 200 + (LARGE + 100 - 300));
  }

  @Test
  default void aStoredDuplicateIsTheOldestMatchingTaskOfTheSameKey() {
    Store s = withTypes();
    Task early = s.taskCreate(List.of(oneshot(1)), t0()).get(0);
    Task later = s.taskCreate(List.of(oneshot(1).withNextRun(t0().plusSeconds(60))), t0()).get(0);
    Task low = s.taskCreate(List.of(oneshot(1).withPriority(TaskPriority.LOW)), t0()).get(0);
    Task rec = s.taskCreate(List.of(recurring(1)), t0()).get(0);

    List<Task> again =
        s.taskCreate(
            List.of(
                recurring(1).withNextRun(t0().plusSeconds(999)),
                oneshot(1).withPriority(TaskPriority.LOW),
                oneshot(1).withNextRun(t0().plusSeconds(60)),
                oneshot(1),
                oneshot(1).withNextRun(t0().plusSeconds(61))),
            t0());

    assertThat(again.subList(0, 4)).containsExactly(rec, low, later, early);
    assertThat(Set.of(early.id(), later.id(), low.id(), rec.id()))
        .doesNotContain(again.get(4).id());
    assertThat(s.taskSearch(TaskQuery.all())).hasSize(5);
  }

  @Test
  default void aSingleTaskIsMatchedToItsStoredDuplicateByTheSameKeyAsABatch() {
    Store s = withTypes();
    Task early = s.taskCreate(List.of(oneshot(1)), t0()).get(0);
    Task later = s.taskCreate(List.of(oneshot(1).withNextRun(t0().plusSeconds(60))), t0()).get(0);
    Task low = s.taskCreate(List.of(oneshot(1).withPriority(TaskPriority.LOW)), t0()).get(0);
    Task rec = s.taskCreate(List.of(recurring(1).withPriority(TaskPriority.HIGH)), t0()).get(0);

    // One task per call: the path that inserts unless a duplicate is stored.
    assertThat(
            s.taskCreate(
                List.of(
                    recurring(1)
                        .withPriority(TaskPriority.HIGH)
                        .withNextRun(t0().plusSeconds(999))),
                t0()))
        .containsExactly(rec);
    assertThat(s.taskCreate(List.of(oneshot(1).withPriority(TaskPriority.LOW)), t0()))
        .containsExactly(low);
    assertThat(s.taskCreate(List.of(oneshot(1).withNextRun(t0().plusSeconds(60))), t0()))
        .containsExactly(later);
    assertThat(s.taskCreate(List.of(oneshot(1)), t0())).containsExactly(early);
    Task recNormal = s.taskCreate(List.of(recurring(1)), t0()).get(0);
    Task other = s.taskCreate(List.of(oneshot(2)), t0()).get(0);

    assertThat(Set.of(early.id(), later.id(), low.id(), rec.id(), recNormal.id(), other.id()))
        .hasSize(6);
    assertThat(s.taskSearch(TaskQuery.all())).hasSize(6);
  }

  @Test
  default void aBadTaskLateInALargeBatchWritesNothing() {
    Store s = withTypes();
    List<NewTask> unknownType =
        new ArrayList<>(IntStream.range(0, LARGE).mapToObj(TaskBatchContract::oneshot).toList());
    unknownType.add(LARGE - 3, NewTask.oneshot("no-such-type", TaskArguments.empty()));
    assertThatThrownBy(() -> s.taskCreate(unknownType, t0()))
        .isInstanceOf(ValidationException.class)
        .hasMessage("type: unknown task type 'no-such-type'");

    List<NewTask> missingKey =
        new ArrayList<>(IntStream.range(0, LARGE).mapToObj(TaskBatchContract::oneshot).toList());
    missingKey.add(
        TaskInserts.CHUNK + 1, NewTask.oneshot("build", TaskArguments.of(List.of(), Map.of())));
    assertThatThrownBy(() -> s.taskCreate(missingKey, t0()))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("kwargs.owner: is required");

    s.taskTypeCreate(TaskType.builder("once-only").build());
    List<NewTask> recurringWithoutInterval =
        new ArrayList<>(IntStream.range(0, LARGE).mapToObj(TaskBatchContract::oneshot).toList());
    recurringWithoutInterval.add(LARGE / 2, NewTask.recurring("once-only", TaskArguments.empty()));
    assertThatThrownBy(() -> s.taskCreate(recurringWithoutInterval, t0()))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("policy:");

    assertThat(s.taskSearch(TaskQuery.all())).isEmpty();
  }

  /**
   * Arguments whose text needs escaping wherever a batch travels (quotes, backslashes, commas and
   * braces of an array literal, NULL spelt out, line breaks, non-ASCII) are stored exactly as
   * given, and ids ascend in input order, so equal due times are claimed in the order they were
   * given.
   */
  @Test
  default void aBatchStoresEveryArgumentTextExactlyAndNumbersItsTasksInInputOrder() {
    Store s = withTypes();
    List<String> awkward =
        List.of(
            "\"quoted\"",
            "back\\slash",
            "a,b",
            "{braces}",
            "NULL",
            "",
            "line\nbreak",
            "été ✓ 日本",
            "'single'",
            "tab\there");
    List<NewTask> batch =
        IntStream.range(0, LARGE)
            .mapToObj(
                i ->
                    NewTask.oneshot(
                            "sync",
                            TaskArguments.of(
                                List.of(awkward.get(i % awkward.size()), i),
                                Map.of("k" + awkward.get(i % awkward.size()), "v")))
                        .withNextRun(t0()))
            .toList();
    List<Task> created = s.taskCreate(batch, t0());

    Map<Long, Task> stored = new HashMap<>();
    s.taskSearch(TaskQuery.all()).forEach(t -> stored.put(t.id(), t));
    assertThat(stored).hasSize(LARGE);
    for (int i = 0; i < LARGE; i++) {
      assertThat(stored.get(created.get(i).id()).arguments().toJson())
          .as("task %d", i)
          .isEqualTo(batch.get(i).arguments().toJson());
      assertThat(stored.get(created.get(i).id()).nextRun()).as("task %d", i).isEqualTo(t0());
      if (i > 0) {
        assertThat(created.get(i).id()).as("task %d", i).isGreaterThan(created.get(i - 1).id());
      }
    }
  }

  @Test
  default void retriesAndNextRunAreWrittenForEveryRowOfABatch() {
    Store s = withTypes();
    List<NewTask> batch =
        IntStream.range(0, LARGE)
            .mapToObj(
                i ->
                    new NewTask(
                        "build",
                        TaskArguments.of(List.of(i), Map.of("owner", "o" + (i % 7))),
                        t0().plusMillis(i),
                        TaskPolicy.ONESHOT,
                        null,
                        i % 5))
            .toList();
    List<Task> created = s.taskCreate(batch, t0());
    Set<Long> ids = new HashSet<>();
    for (int i = 0; i < LARGE; i++) {
      assertThat(created.get(i).retriesLeft()).isEqualTo(i % 5);
      assertThat(created.get(i).nextRun()).isEqualTo(t0().plusMillis(i));
      ids.add(created.get(i).id());
    }
    assertThat(ids).hasSize(LARGE);
  }

  /** More tasks than one bulk chunk holds, so {@code taskCreateAll} writes three. */
  int BULK = TaskInserts.BULK_CHUNK * 2 + 11;

  @Test
  default void aStreamedBatchIsWrittenAChunkAtATimeAsTheStoreHoldsIt() {
    Store s = withTypes();
    List<List<Task>> chunks = new ArrayList<>();
    // every fourth task repeats one of the first chunk, so duplicates cross chunks
    Iterator<NewTask> tasks =
        IntStream.range(0, BULK)
            .mapToObj(
                i ->
                    i % 4 == 3
                        ? oneshot(i % 1000)
                        : i % 2 == 0 ? oneshot(i) : recurring(i).withPriority(TaskPriority.LOW))
            .iterator();

    long count = s.taskCreateAll(tasks, t0(), chunks::add);

    assertThat(count).isEqualTo(BULK);
    assertThat(chunks).hasSize(3);
    List<Task> all = chunks.stream().flatMap(List::stream).toList();
    assertThat(all).hasSize(BULK);
    for (int i = 0; i < BULK; i++) {
      String item = "item-" + (i % 4 == 3 ? i % 1000 : i);
      assertThat(all.get(i).arguments().args().get(0).asText()).as("task %d", i).isEqualTo(item);
    }
    List<Task> distinct = all.stream().distinct().toList();
    // what the chunks reported is what a read of the table finds, field for field
    assertThat(s.taskSearch(TaskQuery.all())).containsExactlyInAnyOrderElementsOf(distinct);
    assertThat(s.taskGet(List.of(all.get(7).id()))).containsExactly(all.get(7));
  }

  @Test
  default void aStreamedBatchThatFailsAfterItsFirstChunksWritesNothing() {
    Store s = withTypes();
    s.taskCreate(List.of(oneshot(-1)), t0());
    List<Task> before = s.taskSearch(TaskQuery.all());
    Iterator<NewTask> tasks =
        IntStream.range(0, BULK)
            .mapToObj(
                i -> {
                  if (i == BULK - 2) {
                    throw new ValidationException("tasks.jsonl:" + (i + 1), "a bad line");
                  }
                  return oneshot(i);
                })
            .iterator();
    List<List<Task>> chunks = new ArrayList<>();

    assertThatThrownBy(() -> s.taskCreateAll(tasks, t0(), chunks::add))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("a bad line");

    assertThat(chunks).hasSize(2); // written, then undone
    assertThat(s.taskSearch(TaskQuery.all())).isEqualTo(before);
  }

  @Test
  default void aStreamedBatchRefusedByTheStoreWritesNothing() {
    Store s = withTypes();
    Iterator<NewTask> tasks =
        IntStream.range(0, BULK)
            .mapToObj(
                i ->
                    i == BULK - 1
                        ? NewTask.oneshot("no-such-type", TaskArguments.empty())
                        : oneshot(i))
            .iterator();

    assertThatThrownBy(() -> s.taskCreateAll(tasks, t0(), chunk -> {}))
        .isInstanceOf(ValidationException.class)
        .hasMessage("type: unknown task type 'no-such-type'");
    assertThat(s.taskSearch(TaskQuery.all())).isEmpty();
  }
}
