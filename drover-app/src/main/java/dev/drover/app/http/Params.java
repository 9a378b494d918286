package dev.drover.app.http;

import dev.drover.ValidationException;
import io.javalin.http.Context;

/** Typed reads of query and path parameters, each error naming the parameter. */
final class Params {
  private Params() {}

  /** A whole number of at least {@code min}, or null when the parameter is absent. */
  static Long whole(Context ctx, String name, long min) {
    String text = ctx.queryParam(name);
    return text == null ? null : parse(name, text, min);
  }

  /** A limit from 1 to {@code max}, {@code fallback} when absent. */
  static int limit(Context ctx, int fallback, int max) {
    Long n = whole(ctx, "limit", 1);
    ValidationException.check(
        n == null || n <= max, "limit", "must be at most " + max + ", got " + n);
    return n == null ? fallback : n.intValue();
  }

  /** {@code true} or {@code false}; false when the parameter is absent. */
  static boolean flag(Context ctx, String name) {
    String text = ctx.queryParam(name);
    if (text == null) {
      return false;
    }
    return switch (text.trim()) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new ValidationException(name, "expected true or false, got '" + text + "'");
    };
  }

  /** A path parameter that must be a positive whole number (a task id). */
  static long id(Context ctx, String name) {
    return parse(name, ctx.pathParam(name), 1);
  }

  private static long parse(String name, String text, long min) {
    long n;
    try {
      n = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new ValidationException(name, "expected a whole number, got '" + text + "'");
    }
    ValidationException.check(n >= min, name, "must be at least " + min + ", got " + n);
    return n;
  }
}
