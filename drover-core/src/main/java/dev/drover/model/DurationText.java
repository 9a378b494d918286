package dev.drover.model;

import dev.drover.ValidationException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes durations as people type them: {@code 500ms}, {@code 90s}, {@code 12h}, {@code
 * 64d}, compounds such as {@code 1h30m} or {@code 1d12h}, or ISO-8601. What {@link #format} prints,
 * {@link #parse} reads back. Durations longer than {@link Limits#MAX_DURATION} are refused.
 */
public final class DurationText {
  private static final Pattern NUMBER = Pattern.compile("\\d+(?:\\.\\d+)?");
  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|w|d|h|m|s)\\s*");
  private static final List<String> UNITS = List.of("w", "d", "h", "m", "s", "ms");
  private static final long[] UNIT_MILLIS = {
    7 * 86_400_000L, 86_400_000L, 3_600_000L, 60_000L, 1_000L, 1
  };
  private static final String EXAMPLES = "(e.g. 500ms, 90s, 15m, 1h30m, 12h, 7d)";

  private DurationText() {}

  /**
   * Parses {@code text}; a bare number means seconds, and a compound names its units from the
   * largest down, each once. Names {@code field} when it cannot.
   */
  public static Duration parse(String field, String text) {
    if (text == null || text.isBlank()) {
      throw new ValidationException(field, "a duration is required " + EXAMPLES);
    }
    String trimmed = text.trim().toLowerCase(Locale.ROOT);
    Double millis = NUMBER.matcher(trimmed).matches() ? seconds(trimmed) : units(trimmed);
    if (millis != null) {
      ValidationException.check(
          millis <= Limits.MAX_DURATION.toMillis(),
          field,
          "'" + text + "' is longer than " + format(Limits.MAX_DURATION) + " (100 years)");
      return Duration.ofMillis(Math.round(millis));
    }
    try {
      return Limits.checkDuration(field, Duration.parse(trimmed.toUpperCase(Locale.ROOT)));
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new ValidationException(field, "cannot read '" + text + "' as a duration " + EXAMPLES);
    }
  }

  private static Double seconds(String number) {
    return Double.parseDouble(number) * 1_000;
  }

  /** The milliseconds of a compound such as {@code 1h30m}, or null when it is not one. */
  private static Double units(String text) {
    Matcher m = PART.matcher(text);
    double millis = 0;
    int at = 0;
    int lastUnit = -1;
    while (at < text.length()) {
      if (!m.find(at) || m.start() != at) {
        return null;
      }
      int unit = UNITS.indexOf(m.group(2));
      if (unit <= lastUnit) {
        return null;
      }
      millis += Double.parseDouble(m.group(1)) * UNIT_MILLIS[unit];
      lastUnit = unit;
      at = m.end();
    }
    return lastUnit < 0 ? null : millis;
  }

  /**
   * Formats {@code d} in days, hours, minutes and seconds, rounded to the millisecond, e.g. {@code
   * 12h}, {@code 1h30m}, {@code 7d} or {@code 4.572s}; {@link #parse} reads it back.
   */
  public static String format(Duration d) {
    if (d == null) {
      return null;
    }
    boolean nanosFit = !d.isNegative() && d.compareTo(Limits.MAX_DURATION) <= 0;
    long ms = nanosFit ? Math.round(d.toNanos() / 1e6) : d.toMillis();
    if (ms == 0 || Math.abs(ms) < 1_000) {
      return ms + "ms";
    }
    StringBuilder out = new StringBuilder(ms < 0 ? "-" : "");
    long rest = Math.abs(ms);
    for (int i = 1; i < 4; i++) {
      if (rest >= UNIT_MILLIS[i]) {
        out.append(rest / UNIT_MILLIS[i]).append(UNITS.get(i));
        rest %= UNIT_MILLIS[i];
      }
    }
    if (rest > 0) {
      out.append(rest / 1_000);
      if (rest % 1_000 != 0) {
        out.append(String.format(Locale.ROOT, ".%03d", rest % 1_000).replaceAll("0+$", ""));
      }
      out.append("s");
    }
    return out.toString();
  }
}
