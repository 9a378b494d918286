package dev.drover.app;

import dev.drover.HandlerProvider;
import dev.drover.TaskHandler;
import dev.drover.ValidationException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Loads the Java handlers of the jars named with {@code --handlers-jar}: every {@link
 * HandlerProvider} each jar declares. The jars share one class loader under the CLI's, so they see
 * Drover's API (and one another) and stay loaded for the life of the process.
 */
final class HandlerJars {
  static final String OPTION = "--handlers-jar";

  private HandlerJars() {}

  /**
   * The built-in handlers plus those of {@code jars}; a task type handled twice is refused, since
   * which one ran would depend on the order of the jars.
   */
  static Map<String, TaskHandler> withBuiltIns(Map<String, TaskHandler> builtIn, List<Path> jars) {
    Map<String, TaskHandler> all = new HashMap<>(builtIn);
    load(jars)
        .forEach(
            (type, handler) ->
                ValidationException.check(
                    all.putIfAbsent(type, handler) == null,
                    OPTION,
                    "task type '" + type + "' has a handler already (built in or in another jar)"));
    return Map.copyOf(all);
  }

  static Map<String, TaskHandler> load(List<Path> jars) {
    if (jars == null || jars.isEmpty()) {
      return Map.of();
    }
    URL[] urls = new URL[jars.size()];
    for (int i = 0; i < urls.length; i++) {
      urls[i] = url(jars.get(i));
    }
    ClassLoader loader = new URLClassLoader(urls, HandlerJars.class.getClassLoader());
    Map<String, TaskHandler> found = new HashMap<>();
    try {
      for (HandlerProvider provider : ServiceLoader.load(HandlerProvider.class, loader)) {
        String from = provider.getClass().getName();
        Map<String, TaskHandler> handlers = provider.handlers();
        ValidationException.check(handlers != null, OPTION, from + ".handlers() returned null");
        handlers.forEach(
            (type, handler) -> {
              ValidationException.check(
                  handler != null, OPTION, from + " gives task type '" + type + "' no handler");
              ValidationException.check(
                  found.putIfAbsent(type, handler) == null,
                  OPTION,
                  "task type '" + type + "' has two handlers in the jars (one from " + from + ")");
            });
      }
    } catch (ServiceConfigurationError e) {
      throw new ValidationException(OPTION, "cannot load a handler provider: " + e.getMessage());
    }
    ValidationException.check(
        !found.isEmpty(),
        OPTION,
        "no handlers in "
            + jars
            + " (a jar lists its providers in META-INF/services/"
            + HandlerProvider.class.getName()
            + ")");
    return found;
  }

  private static URL url(Path jar) {
    ValidationException.check(
        Files.isRegularFile(jar) && Files.isReadable(jar),
        OPTION,
        "'" + jar + "' is not a readable file");
    try {
      return jar.toAbsolutePath().toUri().toURL();
    } catch (MalformedURLException e) {
      throw new ValidationException(OPTION, "'" + jar + "': " + e.getMessage());
    }
  }
}
