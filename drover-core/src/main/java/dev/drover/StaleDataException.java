package dev.drover;

/**
 * An optimistic update was refused because the row changed since it was read; nothing was written.
 * Read the row again and retry with its new version.
 */
public class StaleDataException extends DroverException {
  private static final long serialVersionUID = 1L;

  public StaleDataException(String message) {
    super(message);
  }
}
