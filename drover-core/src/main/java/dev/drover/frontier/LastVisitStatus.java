package dev.drover.frontier;

import dev.drover.model.Named;
import java.util.Locale;

/** How an origin's last visit ended, as visit stats keep it. */
public enum LastVisitStatus implements Named {
  SUCCESSFUL,
  FAILED,
  NOT_FOUND;

  @Override
  public String dbName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static LastVisitStatus parse(String field, String text) {
    return Named.parse(LastVisitStatus.class, field, text);
  }
}
