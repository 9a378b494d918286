package dev.drover;

/** The base of every exception Drover throws on purpose. */
public class DroverException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public DroverException(String message) {
    super(message);
  }

  public DroverException(String message, Throwable cause) {
    super(message, cause);
  }
}
