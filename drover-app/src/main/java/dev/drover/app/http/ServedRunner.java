package dev.drover.app.http;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;

/**
 * What the API knows of the runner it serves beside (in {@code drover serve}).
 *
 * @param wake called after tasks were created, enabled, resumed or retried, to wake the runner at
 *     once; does nothing without a runner
 * @param runsDir where runs keep their directories ({@code <runs dir>/<type>/<run id>}): deleting a
 *     task removes its runs' directories from here too, as {@code drover task delete} does
 * @param handledTypes the task types a Java handler executes here, the built-in ones and those of
 *     {@code --handlers-jar}: tasks of a type with neither such a handler nor a command are refused
 */
public record ServedRunner(Runnable wake, Path runsDir, Set<String> handledTypes) {
  public ServedRunner {
    Objects.requireNonNull(wake, "null wake");
    Objects.requireNonNull(runsDir, "null runsDir");
    handledTypes = Set.copyOf(handledTypes);
  }
}
