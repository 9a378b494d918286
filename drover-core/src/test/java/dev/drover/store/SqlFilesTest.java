package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The rules of the SQL files, checked on the files the build packages, without a database: every
 * query the store can ask for loads on both databases, the dialect folders hold the same names, and
 * no dialect's file shadows a common one.
 */
class SqlFilesTest {
  private static final Map<SqlQuery.Home, String> FOLDER =
      Map.of(
          SqlQuery.Home.COMMON, "common",
          SqlQuery.Home.EACH_DIALECT, "each dialect",
          SqlQuery.Home.SQLITE_ONLY, "sqlite",
          SqlQuery.Home.POSTGRES_ONLY, "postgres");

  /** Rule (c): the store asks only for {@link SqlQuery} constants, and each resolves. */
  @Test
  void everyQueryLoadsOnEachDatabaseThatRunsIt() {
    for (Dialect dialect : Dialect.values()) {
      SqlFiles files = new SqlFiles(dialect);
      for (SqlQuery q : SqlQuery.values()) {
        if (q.runsOn(dialect)) {
          assertThat(files.get(q)).as(q + " on " + dialect).isNotBlank();
        } else {
          assertThatThrownBy(() -> files.get(q))
              .as(q + " on " + dialect)
              .hasMessageContaining("is not run on");
        }
      }
    }
  }

  /**
   * No query deletes a task type or renames one: on PostgreSQL a task keeps its type by that rule
   * and the inserts' own checks, not by a foreign key (V021).
   */
  @Test
  void noQueryDeletesOrRenamesATaskType() {
    forEachQueryText(
        (query, text) -> {
          assertThat(text).as(query).doesNotContain("delete from task_type");
          assertThat(text)
              .as(query)
              .doesNotContainPattern("update task_type set (?:(?!where).)*\\bname\\s*=");
        });
  }

  /**
   * No query deletes a lister or changes its id: on PostgreSQL a listed origin keeps its lister by
   * that rule and the recording's own check, not by a foreign key (V022).
   */
  @Test
  void noQueryDeletesAListerOrChangesItsId() {
    forEachQueryText(
        (query, text) -> {
          assertThat(text).as(query).doesNotContain("delete from lister");
          assertThat(text)
              .as(query)
              .doesNotContainPattern("update lister set (?:(?!where).)*\\bid\\s*=");
        });
  }

  /** An UPDATE of task that counts an attempt, which only a claim may do (V025, V026). */
  private static final String COUNTS_AN_ATTEMPT =
      "update task (?:t )?set (?:(?!where).)*\\battempt\\s*+=";

  private static final Set<SqlQuery> CLAIMS =
      Set.of(SqlQuery.TASK_CLAIM, SqlQuery.TASK_CLAIM_PER_KEY);

  /** An UPDATE of task that takes tasks' owner away. */
  private static final String TAKES_AN_OWNER_AWAY =
      "update task (?:t )?set (?:(?!where).)*\\bowner\\s*+=\\s*+null\\b";

  /** The statements that end or give back a lease, and so take its owner away. */
  private static final Set<SqlQuery> OWNER_TAKERS =
      Set.of(
          SqlQuery.TASK_UPDATE_AFTER_RUN_AS_CLAIMED,
          SqlQuery.TASK_UPDATE_AFTER_RUN,
          SqlQuery.TASK_RELEASE,
          SqlQuery.TASK_RELEASE_UNBEGUN,
          SqlQuery.TASK_CANCEL);

  /**
   * On both databases the row trigger that keeps the status counts leaves two kinds of change to
   * the store: a claim, the only change that counts an attempt, and a leased task's owner taken
   * away (SQLite's V025 and V027, PostgreSQL's V026). Only the two claims and the five statements
   * that end or give back a lease may make them, and the store counts their changes; any other
   * statement making such a change would leave the counts wrong. On SQLite the store counts them
   * all, from what they return (taskCountMoved); on PostgreSQL it counts the claims' and the batch
   * completion's, and the other four add their counts to task_count in the same statement.
   */
  @ParameterizedTest
  @EnumSource(Dialect.class)
  void onlyTheStatementsTheStoreCountsClaimOrTakeAnOwnerAway(Dialect dialect) {
    SqlFiles files = new SqlFiles(dialect);
    for (SqlQuery q : SqlQuery.values()) {
      if (q.runsOn(dialect)) {
        String text = files.get(q).replaceAll("\\s+", " ").toLowerCase(java.util.Locale.ROOT);
        if (CLAIMS.contains(q)) {
          assertThat(text).as(q.toString()).containsPattern(COUNTS_AN_ATTEMPT);
        } else {
          assertThat(text).as(q.toString()).doesNotContainPattern(COUNTS_AN_ATTEMPT);
        }
        if (OWNER_TAKERS.contains(q)) {
          assertThat(text).as(q.toString()).containsPattern(TAKES_AN_OWNER_AWAY);
        } else {
          assertThat(text).as(q.toString()).doesNotContainPattern(TAKES_AN_OWNER_AWAY);
        }
        boolean countsInTheStatement =
            dialect == Dialect.POSTGRESQL
                && OWNER_TAKERS.contains(q)
                && q != SqlQuery.TASK_UPDATE_AFTER_RUN_AS_CLAIMED;
        if (countsInTheStatement) {
          assertThat(text).as(q.toString()).contains("insert into task_count");
        }
      }
    }
  }

  /** Every query of each dialect, whitespace folded and lower case, named by query and dialect. */
  private static void forEachQueryText(java.util.function.BiConsumer<String, String> check) {
    for (Dialect dialect : Dialect.values()) {
      SqlFiles files = new SqlFiles(dialect);
      for (SqlQuery q : SqlQuery.values()) {
        if (q.runsOn(dialect)) {
          check.accept(
              q + " on " + dialect,
              files.get(q).replaceAll("\\s+", " ").toLowerCase(java.util.Locale.ROOT));
        }
      }
    }
  }

  /** A query's text is its file's statement lines, in order, without the lines of comment. */
  @Test
  void aQueryRunsWithoutItsFilesCommentLines() {
    String file = "-- why\nSELECT a, -- the a\n  -- between\n  b FROM t\n-- after";
    assertThat(SqlFiles.withoutCommentLines(file)).isEqualTo("SELECT a, -- the a\n  b FROM t");
    for (Dialect dialect : Dialect.values()) {
      SqlFiles files = new SqlFiles(dialect);
      for (SqlQuery q : SqlQuery.values()) {
        if (q.runsOn(dialect)) {
          assertThat(files.get(q).lines())
              .as(q + " on " + dialect)
              .noneMatch(line -> line.stripLeading().startsWith("--"));
          assertThat(files.nameOf(files.get(q))).isEqualTo(q.fileName());
        }
      }
    }
  }

  /** Rule (a): a query in one dialect's folder is in the other's, under the same name. */
  @Test
  void theDialectFoldersHoldTheSameQueries() throws Exception {
    Set<String> sqlite = names("sqlite");
    Set<String> postgres = names("postgres");
    sqlite.removeAll(namesOf(SqlQuery.Home.SQLITE_ONLY));
    postgres.removeAll(namesOf(SqlQuery.Home.POSTGRES_ONLY));
    assertThat(sqlite).isEqualTo(postgres).isEqualTo(namesOf(SqlQuery.Home.EACH_DIALECT));
    // The exceptions are steps the other database folds into another query; keep them few.
    assertThat(namesOf(SqlQuery.Home.SQLITE_ONLY))
        .containsExactlyInAnyOrder(
            "originStatsMoved", "originStatsReplace", "originStatsUpsert", "taskLeasedAmong");
    assertThat(namesOf(SqlQuery.Home.POSTGRES_ONLY))
        .containsExactly(
            "frontierLockListers",
            "frontierLockStatsSlot",
            "frontierLockStatsSlots",
            "frontierLockVisitType",
            "frontierLockVisitTypeShared",
            "originRecordWithoutConflict",
            "taskLockForDeletion",
            "taskRunInsertEnded",
            "taskUpdatePlansByKey");
  }

  /** Rule (b), on the packaged files: no name is both common and a dialect's. */
  @Test
  void noDialectFileShadowsACommonOne() throws Exception {
    Set<String> common = names("common");
    assertThat(common).doesNotContainAnyElementsOf(names("sqlite"));
    assertThat(common).doesNotContainAnyElementsOf(names("postgres"));
  }

  /** Rule (b), in the loader: a shadowing file is refused, whichever side it is on. */
  @Test
  void sqlFilesRefuseAFileThatShadowsAnother() {
    SqlFiles shadowed = new SqlFiles("dev/drover/store/testing/shadowed", Dialect.SQLITE);
    assertThatThrownBy(() -> shadowed.get(SqlQuery.TASK_GET)).hasMessageContaining("shadow");
    assertThatThrownBy(() -> shadowed.get(SqlQuery.TASK_RUN_END_MANY))
        .hasMessageContaining("shadow");
  }

  /** Every file is a query, in the folder its query says: no file is left unread. */
  @Test
  void everyFileIsAQueryInItsHome() throws Exception {
    for (String folder : List.of("common", "sqlite", "postgres")) {
      for (String name : names(folder)) {
        SqlQuery q =
            Arrays.stream(SqlQuery.values())
                .filter(v -> v.fileName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(folder + "/" + name + ".sql is no SqlQuery"));
        String home = FOLDER.get(q.home());
        assertThat(home.equals(folder) || home.equals("each dialect") && !folder.equals("common"))
            .as(folder + "/" + name + ".sql is " + q.home())
            .isTrue();
      }
    }
  }

  /** Every query is used by the store's code: a constant is not left behind when its use goes. */
  @Test
  void everyQueryIsAskedForByTheStore() throws IOException {
    String code;
    try (Stream<Path> files = Files.list(Paths.get("src/main/java/dev/drover/store"))) {
      code =
          files
              .filter(p -> !p.getFileName().toString().equals("SqlQuery.java"))
              .map(SqlFilesTest::read)
              .collect(Collectors.joining("\n"));
    }
    for (SqlQuery q : SqlQuery.values()) {
      assertThat(code).as(q + " is used").containsPattern("[^.\\w]" + q.name() + "\\b");
    }
  }

  /** Each dialect file begins by saying why it differs from the other database's. */
  @Test
  void everyDialectFileSaysWhyItDiffers() throws Exception {
    Map<String, String> databases = Map.of("sqlite", "SQLite", "postgres", "PostgreSQL");
    for (Map.Entry<String, String> e : databases.entrySet()) {
      for (String name : names(e.getKey())) {
        Path file = folder(e.getKey()).resolve(name + ".sql");
        String first = read(file).lines().findFirst().orElse("");
        assertThat(first)
            .as(e.getKey() + "/" + name + ".sql")
            .matches("-- " + e.getValue() + " (differs|only): .+");
      }
    }
  }

  private static Set<String> namesOf(SqlQuery.Home home) {
    return Arrays.stream(SqlQuery.values())
        .filter(q -> q.home() == home)
        .map(SqlQuery::fileName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** The query names in a folder of the packaged resources. */
  private static Set<String> names(String folder) throws IOException, URISyntaxException {
    try (Stream<Path> files = Files.list(folder(folder))) {
      return files
          .map(p -> p.getFileName().toString())
          .peek(f -> assertThat(f).as("in " + folder).endsWith(".sql"))
          .map(f -> f.substring(0, f.length() - ".sql".length()))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static Path folder(String folder) throws URISyntaxException {
    URL url = SqlFilesTest.class.getClassLoader().getResource(SqlFiles.ROOT + "/" + folder);
    assertThat(url).as(folder).isNotNull();
    return Paths.get(url.toURI());
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
