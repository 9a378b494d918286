package dev.drover.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.SQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Tells a full disk apart from other store failures, so that it is reported as what it is rather
 * than as the driver's "Failed to commit transaction". Nothing here retries: a runner backs off and
 * carries on by itself once space returns, a command is simply run again.
 */
public final class DiskFull {
  /** PostgreSQL's SQLSTATE for disk_full. */
  private static final String POSTGRES_DISK_FULL = "53100";

  /** Less free space than this counts as none: SQLite grows its files a page or more at a time. */
  private static final long ALMOST_NONE = 1024 * 1024;

  private DiskFull() {}

  /**
   * If {@code e} or one of its causes says the disk is full, one line naming where (for SQLite the
   * data directory, whose disk holds the database file); else null.
   *
   * @param where the store's {@link Store#where()}
   */
  public static String describe(Throwable e, String where) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLiteException s) {
        int primary = s.getErrorCode() & 0xff;
        if (primary == SQLiteErrorCode.SQLITE_FULL.code) {
          return "the disk holding " + where + " is full (SQLITE_FULL)";
        }
        // With no room left even the WAL's shared-memory file cannot grow: an I/O error, which
        // the free space of the data directory's disk tells apart from a failing disk.
        if (primary == SQLiteErrorCode.SQLITE_IOERR.code && noRoomLeft(where)) {
          return "the disk holding " + where + " is full (" + s.getResultCode().name() + ")";
        }
      }
      if (t instanceof SQLException s && POSTGRES_DISK_FULL.equals(s.getSQLState())) {
        return "the disk of the PostgreSQL server at " + where + " is full (disk_full)";
      }
      if (t instanceof IOException && String.valueOf(t.getMessage()).contains("No space left")) {
        return "the disk holding " + where + " is full (no space left on device)";
      }
    }
    return null;
  }

  /** Whether the disk holding {@code dir} has (next to) no space left for an unprivileged user. */
  private static boolean noRoomLeft(String dir) {
    try {
      Path path = Path.of(dir);
      return Files.isDirectory(path) && Files.getFileStore(path).getUsableSpace() < ALMOST_NONE;
    } catch (IOException | InvalidPathException e) {
      return false;
    }
  }
}
