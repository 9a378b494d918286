package dev.drover;

import java.util.Map;

/**
 * Java task handlers packaged in a jar for {@code drover run --handlers-jar FILE} and {@code drover
 * serve --handlers-jar FILE}, so a team writes handlers without forking Drover. Implement it with a
 * public no-argument constructor and name the class in the jar's {@code
 * META-INF/services/dev.drover.HandlerProvider}; the CLI finds it with {@link
 * java.util.ServiceLoader}.
 */
public interface HandlerProvider {
  /** The handlers by task type name. */
  Map<String, TaskHandler> handlers();
}
