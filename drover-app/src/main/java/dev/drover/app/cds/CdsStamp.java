package dev.drover.app.cds;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * What a class-data archive was built for: the size and modification time (seconds) of the jar and
 * of the archive, one line each, as {@code stat -c '%s %Y' JAR ARCHIVE} prints them, so that the
 * {@code drover} launcher can compare them with one {@code stat} call before it uses the archive.
 */
final class CdsStamp {
  private CdsStamp() {}

  /** Where the stamp of {@code archive} is kept: beside it. */
  static Path fileFor(Path archive) {
    return archive.resolveSibling(archive.getFileName() + ".stamp");
  }

  /** The stamp's text for the jar and the archive as they are now. */
  static String of(Path jar, Path archive) throws IOException {
    return line(jar) + line(archive);
  }

  /** True if {@code stamp} exists and describes the jar and the archive as they are now. */
  static boolean matches(Path stamp, Path jar, Path archive) {
    try {
      return Files.isRegularFile(archive)
          && Files.readString(stamp, StandardCharsets.UTF_8).equals(of(jar, archive));
    } catch (IOException e) {
      return false;
    }
  }

  /** Writes the stamp atomically: the launcher never reads half of one. */
  static void write(Path stamp, Path jar, Path archive) throws IOException {
    Path temp = stamp.resolveSibling(stamp.getFileName() + ".tmp");
    Files.writeString(temp, of(jar, archive), StandardCharsets.UTF_8);
    Files.move(temp, stamp, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static String line(Path file) throws IOException {
    long seconds = Files.getLastModifiedTime(file).to(TimeUnit.SECONDS);
    return Files.size(file) + " " + seconds + "\n";
  }
}
