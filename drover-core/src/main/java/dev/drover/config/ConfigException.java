package dev.drover.config;

import dev.drover.ValidationException;
import java.nio.file.Path;

/** A configuration file problem, located by file, line and the dotted path of the setting. */
public class ConfigException extends ValidationException {
  private static final long serialVersionUID = 1L;

  ConfigException(Path file, int line, String setting, String problem) {
    super(file + ":" + line + ": " + setting, problem);
  }
}
