package dev.drover.engine;

import dev.drover.config.ConfigFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Objects;
import java.util.Optional;

/**
 * Notices that a configuration file changed (its modification time or size), or is told to
 * re-read it (SIGHUP), and reads it again. An invalid file throws, as {@link ConfigFile#read} does;
 * the change counts as seen either way, so a broken file is reported once, not at every check.
 */
final class ConfigReloader {
  private final Path file;
  private Object seen;

  ConfigReloader(Path file) {
    this.file = file;
    this.seen = stamp();
  }

  /** The file read again if it changed since the last call or {@code forced}; empty otherwise. */
  Optional<ConfigFile> changed(boolean forced) {
    Object now = stamp();
    if (!forced && Objects.equals(now, seen)) {
      return Optional.empty();
    }
    seen = now;
    return Optional.of(ConfigFile.read(file));
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
