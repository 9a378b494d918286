package dev.drover;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Main code lines stay within 100 columns in every module. The formatter (Spotless with
 * google-java-format, checked by every build) wraps code; it leaves long string literals and
 * comments as they are, which this test catches.
 */
class SourceLinesTest {
  private static final int COLUMNS = 100;

  @Test
  void mainCodeLinesStayWithin100Columns() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    List<Path> sources = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module :
          modules.filter(m -> Files.isDirectory(m.resolve("src/main/java"))).toList()) {
        try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
          files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
        }
      }
    }
    assertThat(sources).as("main sources found under " + root).hasSizeGreaterThan(100);
    List<String> tooLong = new ArrayList<>();
    for (Path file : sources) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).length() > COLUMNS) {
          tooLong.add(root.relativize(file) + ":" + (i + 1) + " (" + lines.get(i).length() + ")");
        }
      }
    }
    assertThat(tooLong).as("lines over " + COLUMNS + " columns").isEmpty();
  }
}
