package dev.drover.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * Another process holding a SQLite database's write lock: {@code SqliteLocker <db file> <millis>}
 * takes the lock, prints {@code locked}, holds it for the given time, then lets go and exits.
 */
public final class SqliteLocker {
  private SqliteLocker() {}

  public static void main(String[] args) throws Exception {
    long millis = Long.parseLong(args[1]);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + args[0]);
        Statement s = c.createStatement()) {
      s.execute("BEGIN EXCLUSIVE");
      System.out.println("locked");
      System.out.flush();
      Thread.sleep(millis);
      s.execute("COMMIT");
    }
  }
}
