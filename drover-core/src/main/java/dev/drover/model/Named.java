package dev.drover.model;

import dev.drover.ValidationException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Enums whose database and CLI spelling is a lower-case word. */
public interface Named {
  /** The spelling used in the database, the CLI and JSON. */
  String dbName();

  /** Parses {@code text} as one of {@code type}'s values, or names the field and the choices. */
  static <E extends Enum<E> & Named> E parse(Class<E> type, String field, String text) {
    if (text != null) {
      String wanted = text.trim().toLowerCase(Locale.ROOT).replace('-', '_');
      for (E value : type.getEnumConstants()) {
        if (value.dbName().equals(wanted)) {
          return value;
        }
      }
    }
    String choices =
        Arrays.stream(type.getEnumConstants()).map(Named::dbName).collect(Collectors.joining(", "));
    throw new ValidationException(
        field, "unknown value '" + text + "' (expected one of " + choices + ")");
  }
}
