package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.drover.store.StoreLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, item 24: errors that used to name the wrong cause (a FlywayException, "no Drover
 * store", "no such file", "Input length = 1") or none at all (a zero-byte drover.db read as an
 * empty store). Each is one line on stderr naming the file and the real problem, exit code 2, and
 * nothing on disk changes.
 */
class UnclearErrorsIT {
  @TempDir Path tmp;

  private DroverCli.Result drover(Object... args) {
    return DroverCli.in(tmp).run(args);
  }

  private static void assertOneLine(DroverCli.Result r, String... mentions) {
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
    assertThat(r.stderrLines()).as(r.toString()).hasSize(1);
    assertThat(r.stderrLines().get(0)).contains(mentions);
    assertThat(r.stdout()).isEmpty();
  }

  private Path seeded() {
    Path data = tmp.resolve("data");
    Fixtures.seed(StoreLocation.dataDir(data), tmp);
    return data;
  }

  @Test
  void aFileThatIsNotSqliteIsNamed() throws IOException {
    Path data = Files.createDirectories(tmp.resolve("notsqlite"));
    Path db = Fixtures.write(data.resolve("drover.db"), "hello, I am a text file\n");
    byte[] before = Files.readAllBytes(db);
    assertOneLine(drover("--data-dir", data, "status"), "--data-dir", "drover.db", "not an SQLite");
    assertThat(Files.readAllBytes(db)).isEqualTo(before);
  }

  @Test
  void anotherProgramsSqliteDatabaseIsNotMigrated() throws Exception {
    Path data = Files.createDirectories(tmp.resolve("foreign"));
    Path db = data.resolve("drover.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)");
    }
    for (String command : List.of("status", "init")) {
      assertOneLine(
          drover("--data-dir", data, command), "drover.db", "not a Drover store", "invoices");
    }
    // Opening sets the journal mode (a header byte), so compare the tables, not the bytes.
    assertThat(tables(db)).containsExactly("invoices");
  }

  private static List<String> tables(Path db) throws Exception {
    List<String> names = new java.util.ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement();
        java.sql.ResultSet rows =
            s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
      while (rows.next()) {
        names.add(rows.getString(1));
      }
    }
    return names;
  }

  @Test
  void aPostgresSchemaOfAnotherProgramIsNotMigrated() throws Exception {
    String url = dev.drover.testing.TestPostgres.freshUrl();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE invoices (id bigint PRIMARY KEY, amount numeric)");
    }
    for (String command : List.of("status", "init")) {
      assertOneLine(drover("--db", url, command), "--db", "not a Drover store", "invoices");
    }
    List<String> tables = new java.util.ArrayList<>();
    try (Connection c = DriverManager.getConnection(url);
        java.sql.ResultSet rows =
            c.getMetaData().getTables(null, c.getSchema(), "%", new String[] {"TABLE"})) {
      while (rows.next()) {
        tables.add(rows.getString("TABLE_NAME"));
      }
    }
    assertThat(tables).containsExactly("invoices");
  }

  @Test
  void aZeroByteDatabaseIsNotAnEmptyStore() throws IOException {
    Path data = Files.createDirectories(tmp.resolve("zero"));
    Path db = Files.createFile(data.resolve("drover.db"));
    assertOneLine(drover("--data-dir", data, "status"), "drover.db", "empty (0 bytes)");
    assertOneLine(drover("--data-dir", data, "task", "list"), "drover.db", "empty (0 bytes)");
    assertThat(Files.size(db)).isZero();
    // init, which creates stores, makes one in it and says so.
    assertThat(drover("--data-dir", data, "init").ok().stdout()).contains("created a new store");
  }

  @Test
  void anUnreadableDataDirIsNotAMissingStore() throws IOException {
    Path data = seeded();
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("---------"));
    try {
      // root reads a mode 000 directory all the same, so there is nothing to refuse.
      assumeFalse(Files.isReadable(data), "running as root: mode 000 does not deny access");
      assertOneLine(drover("--data-dir", data, "status"), "--data-dir", "permission denied");
    } finally {
      Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
    }
  }

  @Test
  void aDirectoryWhereAFileIsExpectedIsNamedAsSuch() throws IOException {
    Path data = seeded();
    Path dir = Files.createDirectories(tmp.resolve("tasks.jsonl"));
    List<String> before = DbSnapshot.ofDataDir(data);
    assertOneLine(
        drover("--data-dir", data, "task", "add", "--file", dir), "--file", "is a directory");
    assertOneLine(drover("--data-dir", data, "origin", "record", dir), "FILE", "is a directory");
    assertOneLine(drover("--data-dir", data, "config", "apply", dir), "FILE", "is a directory");
    assertThat(DbSnapshot.ofDataDir(data)).isEqualTo(before);
  }

  @Test
  void aFileThatIsNotUtf8NamesItsLine() throws IOException {
    Path data = seeded();
    Path tasks = tmp.resolve("tasks.jsonl");
    byte[] good = "{\"type\": \"check\", \"args\": [\"a\"], \"policy\": \"oneshot\"}\n".getBytes();
    byte[] bad = {'{', '"', 't', 'y', 'p', 'e', '"', ':', '"', (byte) 0xff, '"', '}', '\n'};
    byte[] all = new byte[good.length + bad.length];
    System.arraycopy(good, 0, all, 0, good.length);
    System.arraycopy(bad, 0, all, good.length, bad.length);
    Files.write(tasks, all);
    Path yaml = tmp.resolve("latin1.yaml");
    Files.write(yaml, "task_types:\n  caf\u00e9: {}\n".getBytes("ISO-8859-1"));
    List<String> before = DbSnapshot.ofDataDir(data);

    assertOneLine(
        drover("--data-dir", data, "task", "add", "--file", tasks),
        "--file",
        "tasks.jsonl:2",
        "not UTF-8");
    assertOneLine(
        drover("--data-dir", data, "origin", "record", tasks), "tasks.jsonl:2", "not UTF-8");
    assertOneLine(
        drover("--data-dir", data, "config", "apply", yaml), "latin1.yaml:2", "not UTF-8");
    Path csv = tmp.resolve("origins.csv");
    Files.write(
        csv, "url,visit_type\nhttps://a,git\nhttps://caf\u00e9,git\n".getBytes("ISO-8859-1"));
    assertOneLine(
        drover("--data-dir", data, "origin", "record", "--lister", "l", csv),
        "origins.csv:3",
        "not UTF-8");
    Path results = tmp.resolve("results.jsonl");
    Files.write(
        results,
        ("{\"url\": \"https://a\", \"visit_type\": \"git\", \"date\": \"2026-01-01\", "
                + "\"status\": \"full\"}\n{\"url\": \"https://caf\u00e9\"}\n")
            .getBytes("ISO-8859-1"));
    assertOneLine(
        drover("--data-dir", data, "visit", "ingest", results), "results.jsonl:2", "not UTF-8");
    assertThat(DbSnapshot.ofDataDir(data)).isEqualTo(before);
  }
}
