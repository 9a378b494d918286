package dev.drover.app;

import dev.drover.ValidationException;
import dev.drover.model.DurationText;
import dev.drover.model.Limits;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Reads option values typed by a person. Every failure is a {@link ValidationException} naming the
 * option, thrown before any store is opened.
 */
final class Inputs {
  private Inputs() {}

  /**
   * An ISO-8601 instant ({@code 2026-01-02T03:04:05Z}, an offset, or a date alone as midnight UTC).
   */
  static Instant instant(String option, String text) {
    return text == null ? null : Limits.checkInstant(option, parseInstant(option, text));
  }

  private static Instant parseInstant(String option, String text) {
    String t = text.trim();
    try {
      return Instant.parse(t);
    } catch (DateTimeParseException e) {
      // try the other accepted forms
    }
    try {
      return OffsetDateTime.parse(t).toInstant();
    } catch (DateTimeParseException | ArithmeticException e) {
      // try the other accepted forms
    }
    try {
      return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeParseException e) {
      throw new ValidationException(
          option,
          "cannot read '"
              + text
              + "' as a timestamp (expected ISO-8601 such as 2026-01-02T03:04:05Z, or a date "
              + "such as 2026-01-02)");
    }
  }

  /** A duration such as {@code 90s}, {@code 12h}, {@code 7d}; null stays null. */
  static Duration duration(String option, String text) {
    return text == null ? null : DurationText.parse(option, text);
  }

  /** Task ids, each a positive whole number; commas separate several in one argument. */
  static List<Long> ids(String option, List<String> texts) {
    List<Long> ids = new ArrayList<>();
    for (String text : split(texts)) {
      long id;
      try {
        id = Long.parseLong(text.trim());
      } catch (NumberFormatException e) {
        throw new ValidationException(
            option, "'" + text + "' is not a task id (expected a positive whole number)");
      }
      ValidationException.check(
          id > 0, option, "'" + text + "' is not a task id (expected a positive whole number)");
      ids.add(id);
    }
    return ids;
  }

  /**
   * Parses each value (commas separate several in one argument) with {@code parse(option, text)}.
   */
  static <T> List<T> each(String option, List<String> texts, BiFunction<String, String, T> parse) {
    return split(texts).stream().map(t -> parse.apply(option, t)).toList();
  }

  /** A limit that must be positive when given. */
  static Integer positive(String option, Integer value) {
    ValidationException.check(value == null || value > 0, option, "must be positive, got " + value);
    return value;
  }

  private static List<String> split(List<String> texts) {
    List<String> out = new ArrayList<>();
    if (texts != null) {
      for (String text : texts) {
        for (String part : text.split(",", -1)) {
          out.add(part.trim());
        }
      }
    }
    return out;
  }
}
