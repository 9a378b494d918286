package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MigrationsTest {
  private static final Pattern VERSIONED = Pattern.compile("V(\\d+)__.*\\.sql");

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void latestIsTheHighestMigrationShippedForEachDialect(Dialect dialect) throws Exception {
    assertThat(highestVersionIn(dialect)).isEqualTo(Migrations.LATEST);
  }

  private static int highestVersionIn(Dialect dialect) throws Exception {
    try (Stream<Path> files = Files.list(resourceDir(dialect.migrations()))) {
      return files.map(f -> VERSIONED.matcher(f.getFileName().toString()))
          .filter(Matcher::matches)
          .mapToInt(m -> Integer.parseInt(m.group(1)))
          .max()
          .orElseThrow();
    }
  }

  private static Path resourceDir(String name) throws URISyntaxException {
    return Path.of(MigrationsTest.class.getClassLoader().getResource(name).toURI());
  }
}
