package dev.drover.engine;

import dev.drover.config.ConfigFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Objects;
import java.util.Optional;

/**
 * Notices that a configuration file changed (its modification time or size), or is told to re-read
 * it (SIGHUP), and reads it again. A change counts as seen only once the caller says so ({@link
 * #seen()}): after the file was applied, or found invalid (so a broken file is reported once, not
 * at every check), but not when applying it failed for want of the database.
 */
final class ConfigReloader {
  private final Path file;
  private Object seen;
  private Object read;

  ConfigReloader(Path file) {
    this.file = file;
    this.seen = stamp();
  }

  /**
   * The file read again if it changed since it was last seen, or {@code forced}; empty otherwise.
   * An invalid file throws, as {@link ConfigFile#read} does.
   */
  Optional<ConfigFile> changed(boolean forced) {
    Object now = stamp();
    if (!forced && Objects.equals(now, seen)) {
      return Optional.empty();
    }
    read = now;
    return Optional.of(ConfigFile.read(file));
  }

  /** The version last returned (or refused) by {@link #changed} is dealt with. */
  void seen() {
    seen = read;
  }

  Path file() {
    return file;
  }

  private Object stamp() {
    try {
      FileTime modified = Files.getLastModifiedTime(file);
      return modified + "/" + Files.size(file);
    } catch (IOException e) {
      return null; // missing: reading it will say so
    }
  }
}
