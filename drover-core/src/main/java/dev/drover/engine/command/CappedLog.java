package dev.drover.engine.command;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies one output stream of a command into a log file in its run directory, keeping at most
 * {@code cap} bytes: its tail. A command that prints without end must not fill the disk that holds
 * the store.
 *
 * <p>The file is written in two halves: when the current part reaches half the cap it becomes
 * {@code NAME.1} (replacing the older half, whose bytes are dropped) and a new part starts. When
 * the stream ends, a log that dropped bytes is put together again as one file: a line saying how
 * many bytes were dropped, then the two halves. The stream is always read to its end, so the
 * process never blocks on a full pipe; if the disk fills anyway, the rest is read and dropped, and
 * the file says so.
 */
final class CappedLog implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(CappedLog.class);

  /** Bytes read at a time; a part may pass half the cap by less than this before it rotates. */
  private static final int BUFFER = 64 * 1024;

  private final InputStream in;
  private final Path file;
  private final Path older;
  private final long half;
  private final Thread thread;
  private long dropped;
  private String writeError;

  private CappedLog(InputStream in, Path file, long cap) {
    this.in = in;
    this.file = file;
    this.older = file.resolveSibling(file.getFileName() + ".1");
    this.half = Math.max(1, cap / 2);
    this.thread = new Thread(this, "drover-output-" + file.getFileName());
    thread.setDaemon(true);
  }

  /** Starts copying {@code in} to {@code file} on a thread of its own. */
  static CappedLog start(InputStream in, Path file, long cap) {
    CappedLog capped = new CappedLog(in, file, cap);
    capped.thread.start();
    return capped;
  }

  /**
   * Waits up to {@code millis} for the stream to end (it may outlive the process when a child it
   * left behind holds it open; the copy then goes on, capped, in the background).
   *
   * @return true if the log is complete
   */
  boolean awaitEnd(long millis) throws InterruptedException {
    thread.join(Math.max(1, millis));
    return !thread.isAlive();
  }

  /** Bytes of output not kept, once the stream has ended. */
  synchronized long dropped() {
    return dropped;
  }

  @Override
  public void run() {
    byte[] buf = new byte[BUFFER];
    OutputStream part = open(file);
    long partSize = 0;
    try (in) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        if (part == null) {
          drop(n);
          continue;
        }
        try {
          part.write(buf, 0, n);
          partSize += n;
          if (partSize >= half) {
            part.close();
            rotate();
            part = open(file);
            partSize = 0;
          }
        } catch (IOException e) {
          failed(e);
          close(part);
          part = null;
          drop(n);
        }
      }
    } catch (IOException e) {
      // The pipe broke: the process is gone; what it wrote is kept.
    } finally {
      close(part);
      finish();
    }
  }

  private void rotate() throws IOException {
    if (Files.exists(older)) {
      drop(Files.size(older));
    }
    Files.move(file, older, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Puts a log that dropped bytes together again as one file, under a line that says so. */
  private void finish() {
    long lost = dropped();
    if (lost == 0 && writeError == null) {
      return;
    }
    String note =
        writeError != null
            ? "[drover: " + lost + " bytes of output were not kept: " + writeError + "]\n"
            : "[drover: the first "
                + lost
                + " bytes of output were dropped; the last "
                + (2 * half)
                + " at most are kept]\n";
    Path joined = file.resolveSibling(file.getFileName() + ".tmp");
    try (OutputStream out = Files.newOutputStream(joined)) {
      out.write(note.getBytes(StandardCharsets.UTF_8));
      copyAtMost(older, out, half + BUFFER);
      copyAtMost(file, out, half + BUFFER);
    } catch (IOException e) {
      // No room even for the note: the halves stay as they are, the newest in the log file.
      quietlyDelete(joined);
      return;
    }
    try {
      Files.move(joined, file, StandardCopyOption.REPLACE_EXISTING);
      quietlyDelete(older);
    } catch (IOException e) {
      quietlyDelete(joined);
    }
    log.warn("{}: output cut: {}", file, note.strip());
  }

  /**
   * Copies up to {@code max} bytes of a part that exists: no more than a part can hold, whatever
   * the path turned out to be.
   */
  private static void copyAtMost(Path part, OutputStream out, long max) throws IOException {
    if (!Files.exists(part)) {
      return;
    }
    try (InputStream in = Files.newInputStream(part)) {
      byte[] buf = new byte[BUFFER];
      long left = max;
      int n;
      while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
        out.write(buf, 0, n);
        left -= n;
      }
    }
  }

  private synchronized void drop(long bytes) {
    dropped += bytes;
  }

  private synchronized void failed(IOException e) {
    if (writeError == null) {
      writeError = e.getMessage() == null ? e.toString() : e.getMessage();
    }
  }

  private OutputStream open(Path path) {
    try {
      return Files.newOutputStream(path);
    } catch (IOException e) {
      failed(e);
      return null;
    }
  }

  private static void close(OutputStream out) {
    if (out != null) {
      try {
        out.close();
      } catch (IOException e) {
        // a full disk may refuse the last bytes too; they are counted as written already
      }
    }
  }

  private static void quietlyDelete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // nothing more to do; the file is left for an operator
    }
  }
}
