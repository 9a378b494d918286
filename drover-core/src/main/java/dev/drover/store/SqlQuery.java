package dev.drover.store;

/**
 * Every query the store runs, one {@code .sql} file each under {@code dev/drover/store/}, and where
 * that file lives. {@link SqlFiles} loads nothing else, so a test can load every query on both
 * databases ({@code SqlFilesTest}) and no name the store asks for can be missed. The file is the
 * constant's name in lower camel case ({@code TASK_RUN_END_MANY} is {@code taskRunEndMany}), which
 * is also the name a {@link StoreProbe} sees.
 */
enum SqlQuery {
  EVENT_INSERT(Home.COMMON),
  EVENT_LIST(Home.COMMON),
  EVENT_TAIL(Home.COMMON),
  FRONTIER_LOCK_LISTERS(Home.POSTGRES_ONLY),
  FRONTIER_LOCK_STATS_SLOT(Home.POSTGRES_ONLY),
  FRONTIER_LOCK_STATS_SLOTS(Home.POSTGRES_ONLY),
  FRONTIER_LOCK_VISIT_TYPE(Home.POSTGRES_ONLY),
  FRONTIER_LOCK_VISIT_TYPE_SHARED(Home.POSTGRES_ONLY),
  LEADER_ACQUIRE(Home.COMMON),
  LEADER_GET(Home.COMMON),
  LEADER_RELEASE(Home.COMMON),
  LISTER_GET_BY_IDS(Home.COMMON),
  LISTER_GET_BY_NAME(Home.COMMON),
  LISTER_INSERT_IF_ABSENT(Home.COMMON),
  LISTER_LIST(Home.COMMON),
  LISTER_UPDATE(Home.COMMON),
  METRICS_UPDATE(Home.COMMON),
  ORIGIN_DISABLE(Home.COMMON),
  ORIGIN_RECORD(Home.EACH_DIALECT),
  ORIGIN_RECORD_WITHOUT_CONFLICT(Home.POSTGRES_ONLY),
  ORIGIN_ROWS_ESTIMATE(Home.EACH_DIALECT),
  ORIGIN_STATS_MOVED(Home.SQLITE_ONLY),
  ORIGIN_STATS_REPLACE(Home.SQLITE_ONLY),
  ORIGIN_STATS_UPSERT(Home.SQLITE_ONLY),
  RUNNER_ACTIVATE(Home.COMMON),
  RUNNER_ACTIVE(Home.COMMON),
  RUNNER_DELETE(Home.COMMON),
  RUNNER_GET(Home.COMMON),
  RUNNER_HEARTBEAT(Home.COMMON),
  RUNNER_INSERT(Home.COMMON),
  RUNNER_LIST(Home.COMMON),
  RUNNER_REQUEST_STOP(Home.COMMON),
  SETTING_LIST(Home.COMMON),
  SETTING_UPSERT(Home.COMMON),
  TASK_CLAIM(Home.EACH_DIALECT),
  TASK_PAUSE_RUNNING(Home.COMMON),
  TASK_MARK_DISABLED_BY_OPERATOR(Home.COMMON),
  TASK_COUNT_BY_ROOT(Home.COMMON),
  TASK_COUNT_DISABLED_BY_OPERATOR(Home.COMMON),
  TASK_TYPE_SET_PAUSED(Home.COMMON),
  TASK_TYPE_PAUSED(Home.COMMON),
  TASK_RUN_DELETE_OF_TASKS(Home.COMMON),
  TASK_RUNS_OF_TASKS(Home.COMMON),
  TASK_RETRY(Home.COMMON),
  TASK_RESUME(Home.COMMON),
  TASK_PAUSE(Home.COMMON),
  TASK_FINAL_CHILDREN(Home.COMMON),
  TASK_DELETE(Home.COMMON),
  TASK_CHILD_REOPENED(Home.COMMON),
  TASK_CHILD_IDS(Home.COMMON),
  TASK_CANCEL(Home.EACH_DIALECT),
  TASK_CHILDREN(Home.COMMON),
  TASK_FAMILY_GET(Home.COMMON),
  TASK_SEAL(Home.COMMON),
  TASK_CHILDREN_SETTLED(Home.COMMON),
  TASK_PARENTS_OF(Home.EACH_DIALECT),
  TASK_SPAWNED(Home.COMMON),
  TASK_INSERT_CHILD(Home.COMMON),
  TASK_ADOPT(Home.COMMON),
  TASK_LAST_CHILD(Home.COMMON),
  TASK_CLAIM_CANDIDATES(Home.EACH_DIALECT),
  TASK_CLAIM_PER_KEY(Home.EACH_DIALECT),
  TASK_CLAIM_PER_KEY_LOCK(Home.EACH_DIALECT),
  TASK_COUNT_BY_TYPE_AND_STATUS(Home.COMMON),
  TASK_COUNT_COMPACT(Home.EACH_DIALECT),
  TASK_COUNT_MOVED(Home.EACH_DIALECT),
  TASK_COUNT_DUE_BY_TYPE(Home.COMMON),
  TASK_COUNT_OUTSTANDING(Home.COMMON),
  TASK_DELETE_WITHOUT_RUNS(Home.COMMON),
  TASK_LOCK_FOR_DELETION(Home.POSTGRES_ONLY),
  TASK_ENABLE(Home.COMMON),
  TASK_FIND_DUPLICATES(Home.EACH_DIALECT),
  TASK_GET(Home.COMMON),
  TASK_GRAB_READY(Home.EACH_DIALECT),
  TASK_HEARTBEAT(Home.COMMON),
  TASK_INSERT_MANY(Home.EACH_DIALECT),
  TASK_INSERT_CLAIMED(Home.EACH_DIALECT),
  TASK_INSERT_UNLESS_DUPLICATE(Home.EACH_DIALECT),
  TASK_LEASE_EXPIRED(Home.EACH_DIALECT),
  TASK_LEASE_HELD(Home.EACH_DIALECT),
  TASK_LEASED_AMONG(Home.SQLITE_ONLY),
  TASK_LEASED_BY(Home.EACH_DIALECT),
  TASK_NEXT_DUE(Home.COMMON),
  TASK_OLDEST_WAITING(Home.COMMON),
  TASK_PEEK_READY(Home.COMMON),
  TASK_RELEASE(Home.EACH_DIALECT),
  TASK_RELEASE_UNBEGUN(Home.EACH_DIALECT),
  TASK_RUN_ARCHIVABLE(Home.COMMON),
  TASK_RUN_DELETE(Home.COMMON),
  TASK_RUN_DELETE_SUCCEEDED(Home.COMMON),
  TASK_RUN_END(Home.COMMON),
  TASK_RUN_END_MANY(Home.EACH_DIALECT),
  TASK_RUN_GET_BY_BACKEND_ID(Home.COMMON),
  TASK_RUN_INSERT(Home.EACH_DIALECT),
  TASK_RUN_INSERT_ENDED(Home.POSTGRES_ONLY),
  TASK_RUN_INSERT_STARTED(Home.EACH_DIALECT),
  TASK_RUN_OF_ATTEMPT(Home.COMMON),
  TASK_RUN_OPEN(Home.COMMON),
  TASK_RUN_OPEN_OF_TASKS(Home.COMMON),
  TASK_RUN_START(Home.COMMON),
  TASK_SET_STATUS(Home.COMMON),
  TASK_SET_STATUS_EXCEPT_COMPLETED(Home.COMMON),
  TASK_TYPE_GET(Home.COMMON),
  TASK_TYPE_VERSION(Home.COMMON),
  TASK_TYPE_INSERT(Home.COMMON),
  TASK_TYPE_LIST(Home.COMMON),
  TASK_TYPE_LIST_PAUSED(Home.COMMON),
  TASK_TYPE_UPDATE(Home.COMMON),
  TASK_UPDATE_AFTER_RUN(Home.EACH_DIALECT),
  TASK_UPDATE_AFTER_RUN_AS_CLAIMED(Home.EACH_DIALECT),
  TASK_UPDATE_PLANS_BY_KEY(Home.POSTGRES_ONLY),
  VISIT_GRAB(Home.EACH_DIALECT),
  VISIT_GRAB_SAMPLED(Home.EACH_DIALECT),
  VISIT_MARK_SCHEDULED(Home.EACH_DIALECT),
  TASK_WAITING(Home.COMMON),
  VISIT_QUEUE_POSITION_ADVANCE(Home.COMMON),
  VISIT_QUEUE_POSITION_GET(Home.COMMON),
  VISIT_QUEUE_POSITION_LIST(Home.COMMON),
  VISIT_RETURN_AWAITING(Home.COMMON),
  VISIT_RETURN_COOLED(Home.COMMON),
  VISIT_STATS_GET(Home.EACH_DIALECT),
  VISIT_STATS_REPLACE(Home.EACH_DIALECT),
  VISIT_STATS_UPSERT(Home.EACH_DIALECT),
  WORKER_GROUP_LIST(Home.COMMON),
  WORKER_GROUP_UPSERT(Home.COMMON);

  /** Where a query's file lives. */
  enum Home {
    /** {@code common/}: one text for both databases. */
    COMMON,
    /** {@code sqlite/} and {@code postgres/}, under the same name: the text differs. */
    EACH_DIALECT,
    /** {@code sqlite/} only: a step PostgreSQL does inside another query. */
    SQLITE_ONLY,
    /** {@code postgres/} only: something SQLite does not need (it has one writer). */
    POSTGRES_ONLY
  }

  private final Home home;
  private final String fileName;

  SqlQuery(Home home) {
    this.home = home;
    this.fileName = camel(name());
  }

  Home home() {
    return home;
  }

  /** The file's name without {@code .sql}, e.g. {@code taskRunEndMany}. */
  String fileName() {
    return fileName;
  }

  /** True if {@code dialect} runs this query. */
  boolean runsOn(Dialect dialect) {
    return switch (home) {
      case COMMON, EACH_DIALECT -> true;
      case SQLITE_ONLY -> dialect == Dialect.SQLITE;
      case POSTGRES_ONLY -> dialect == Dialect.POSTGRESQL;
    };
  }

  private static String camel(String upperSnake) {
    StringBuilder out = new StringBuilder();
    boolean upper = false;
    for (char c : upperSnake.toCharArray()) {
      if (c == '_') {
        upper = true;
      } else {
        out.append(upper ? c : Character.toLowerCase(c));
        upper = false;
      }
    }
    return out.toString();
  }
}
