package dev.drover.model;

import dev.drover.ValidationException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Enums whose database and CLI spelling is a lower-case word. */
public interface Named {
  /** The spelling used in the database, the CLI and JSON. */
  String dbName();

  /** Parses {@code text} as one of {@code type}'s values, or names the field and the choices. */
  static <E extends Enum<E> & Named> E parse(Class<E> type, String field, String text) {
    E stored = exact(type, text);
    if (stored != null) {
      return stored;
    }
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

  /**
   * The value spelt exactly {@code text} in the database, or null: one map lookup, for the rows a
   * runner reads in every pass (parse's tolerant matching cost a case conversion per value tried).
   */
  static <E extends Enum<E> & Named> E exact(Class<E> type, String text) {
    return text == null ? null : type.cast(NamedValues.BY_DB_NAME.get(type).get(text));
  }
}

/** Each {@link Named} enum's values by their database spelling, built once per enum. */
final class NamedValues {
  static final ClassValue<Map<String, Object>> BY_DB_NAME =
      new ClassValue<>() {
        @Override
        protected Map<String, Object> computeValue(Class<?> type) {
          return Arrays.stream(type.getEnumConstants())
              .collect(Collectors.toUnmodifiableMap(v -> ((Named) v).dbName(), v -> v));
        }
      };

  private NamedValues() {}
}
