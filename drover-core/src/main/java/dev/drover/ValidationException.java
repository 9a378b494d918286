package dev.drover;

/**
 * Bad input: names the field and the problem in one line. Nothing has been written when it is
 * thrown. The CLI turns it into exit code 2.
 */
public class ValidationException extends DroverException {
  private static final long serialVersionUID = 1L;
  private final String field;

  public ValidationException(String field, String problem) {
    super(field + ": " + problem);
    this.field = field;
  }

  /** The name of the offending field, option or setting. */
  public String field() {
    return field;
  }

  /** Throws a {@code ValidationException} for {@code field} unless {@code condition} holds. */
  public static void check(boolean condition, String field, String problem) {
    if (!condition) {
      throw new ValidationException(field, problem);
    }
  }
}
