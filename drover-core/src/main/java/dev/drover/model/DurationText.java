package dev.drover.model;

import dev.drover.ValidationException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes durations as people type them: {@code 500ms}, {@code 90s}, {@code 12h}, {@code
 * 64d} or ISO-8601.
 */
public final class DurationText {
  private static final Pattern SIMPLE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d|w)?");

  private DurationText() {}

  /** Parses {@code text}; a bare number means seconds. Names {@code field} when it cannot. */
  public static Duration parse(String field, String text) {
    if (text == null || text.isBlank()) {
      throw new ValidationException(field, "a duration is required (e.g. 90s, 12h, 7d)");
    }
    String trimmed = text.trim().toLowerCase(Locale.ROOT);
    Matcher m = SIMPLE.matcher(trimmed);
    if (m.matches()) {
      double amount = Double.parseDouble(m.group(1));
      String unit = m.group(2) == null ? "s" : m.group(2);
      double millis =
          switch (unit) {
            case "ms" -> amount;
            case "s" -> amount * 1_000;
            case "m" -> amount * 60_000;
            case "h" -> amount * 3_600_000;
            case "d" -> amount * 86_400_000;
            default -> amount * 7 * 86_400_000;
          };
      return Duration.ofMillis(Math.round(millis));
    }
    try {
      return Duration.parse(trimmed.toUpperCase(Locale.ROOT));
    } catch (DateTimeParseException e) {
      throw new ValidationException(
          field, "cannot read '" + text + "' as a duration (e.g. 500ms, 90s, 15m, 12h, 7d)");
    }
  }

  /** Formats {@code d} in the largest unit that represents it exactly, e.g. {@code 12h}. */
  public static String format(Duration d) {
    if (d == null) {
      return null;
    }
    long ms = d.toMillis();
    long[] sizes = {7 * 86_400_000L, 86_400_000L, 3_600_000L, 60_000L, 1_000L};
    String[] units = {"w", "d", "h", "m", "s"};
    for (int i = 0; i < sizes.length; i++) {
      if (ms != 0 && ms % sizes[i] == 0) {
        return ms / sizes[i] + units[i];
      }
    }
    return ms + "ms";
  }
}
