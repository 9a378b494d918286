package dev.drover.app;

import dev.drover.DroverException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A file of the {@code examples/} folder: the one under the working directory if there is one (so
 * edits to it are used), otherwise the copy bundled in the jar, extracted to a temporary file that
 * {@link #close()} removes.
 *
 * @param path where to read it
 * @param shownAs how to name it to the user
 * @param temporary whether it is an extracted copy to delete on close
 */
record ExampleFile(Path path, String shownAs, boolean temporary) implements AutoCloseable {
  static final String FOLDER = "examples";

  /** The example {@code name}, looked for under {@code shell}'s working directory first. */
  static ExampleFile open(String name, Shell shell) {
    Path shown = Path.of(FOLDER, name);
    Path local = shell.resolve(shown);
    if (Files.isRegularFile(local)) {
      return new ExampleFile(local, shown.toString(), false);
    }
    try (InputStream bundled = ExampleFile.class.getResourceAsStream("/" + FOLDER + "/" + name)) {
      if (bundled == null) {
        throw new DroverException("no " + shown + " here and no bundled copy in the jar");
      }
      Path dir = Files.createTempDirectory("drover-example");
      Path copy = dir.resolve(name);
      Files.copy(bundled, copy, StandardCopyOption.REPLACE_EXISTING);
      return new ExampleFile(copy, name + " (bundled example)", true);
    } catch (IOException e) {
      throw new DroverException("cannot extract the bundled " + name + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    if (temporary) {
      try {
        Files.deleteIfExists(path);
        Files.deleteIfExists(path.getParent());
      } catch (IOException e) {
        // a leftover file in the temporary directory is harmless
      }
    }
  }
}
