package dev.drover.testing;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whether some process holds a POSIX lock on a byte range of a file, seen from another process:
 * {@code SqliteLockProbe <file> <offset> <length>} tries a write lock on the range, prints {@code
 * held} if it cannot have it or {@code free} if it can, and lets it go. A process cannot see its
 * own locks this way (POSIX locks never conflict within one process), hence a process of its own.
 */
public final class SqliteLockProbe {
  /** SQLite's "dead man switch" byte in the {@code -shm} file: every user holds it shared. */
  public static final long SHM_DMS = 128;

  /** SQLite's shared-lock range in the database file, held by every open WAL connection. */
  public static final long DB_SHARED_FIRST = 0x40000002L;

  public static final long DB_SHARED_SIZE = 510;

  private SqliteLockProbe() {}

  public static void main(String[] args) throws Exception {
    try (FileChannel channel =
            FileChannel.open(Path.of(args[0]), StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock(Long.parseLong(args[1]), Long.parseLong(args[2]), false)) {
      System.out.println(lock == null ? "held" : "free");
    }
  }
}
