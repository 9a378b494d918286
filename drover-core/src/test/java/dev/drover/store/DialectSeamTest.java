package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The store's code never asks which database it runs on: what differs lives in {@link SqliteSql}
 * and {@link PostgresSql}, chosen once in {@link Stores}.
 */
class DialectSeamTest {
  /** The files that may name a dialect: the choice, the two implementations, and the names. */
  private static final Set<String> ALLOWED =
      Set.of("Stores.java", "SqliteSql.java", "PostgresSql.java", "Dialect.java", "SqlQuery.java");

  @Test
  void onlyTheDialectImplementationsNameADialect() throws IOException {
    List<Path> offenders;
    try (Stream<Path> files = Files.walk(Paths.get("src/main/java"))) {
      offenders =
          files
              .filter(p -> p.toString().endsWith(".java"))
              .filter(p -> !ALLOWED.contains(p.getFileName().toString()))
              .filter(DialectSeamTest::namesADialect)
              .toList();
    }
    assertThat(offenders).as("files that test the dialect instead of calling DialectSql").isEmpty();
  }

  private static boolean namesADialect(Path p) {
    try {
      String code = Files.readString(p);
      return code.contains("Dialect.SQLITE") || code.contains("Dialect.POSTGRESQL");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
