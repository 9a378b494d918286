package dev.drover;

/**
 * Executes tasks of one type inside the runner's JVM. Returning an {@link Outcome} ends the run
 * with it; throwing ends it {@code failed} with the exception's message kept. A handler should stop
 * promptly when its thread is interrupted: that is how a lost lease or a shutdown cancels it.
 */
@FunctionalInterface
public interface TaskHandler {
  Outcome handle(TaskContext context) throws Exception;
}
