package dev.drover.store;

/**
 * Sees the store's statements and commits as they happen, before they reach the database: a test
 * uses it to make the store fail at a chosen step (throw from a callback and that statement or
 * commit fails, and its transaction rolls back). It costs nothing when none is given.
 */
public interface StoreProbe {
  /** No probe. */
  StoreProbe NONE = new StoreProbe() {};

  /**
   * Called before each statement of the store's SQL files executes, with the file's query name
   * (e.g. {@code taskRunEndMany}). Throwing fails the statement.
   */
  default void beforeStatement(String queryName) {}

  /** Called before each transaction of the store commits. Throwing rolls it back instead. */
  default void beforeCommit() {}
}
