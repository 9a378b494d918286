package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Origin files as spreadsheets and scripts write them: CSV with a BOM, quoted line breaks. */
class OriginFileTest {
  @TempDir Path dir;

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  /** A whole file's entries, in order, split into origins and invalid lines. */
  private record Read(List<OriginFile.Line> lines, List<OriginFile.Invalid> invalid) {}

  private static Read read(Path file) {
    List<OriginFile.Line> lines = new ArrayList<>();
    List<OriginFile.Invalid> invalid = new ArrayList<>();
    try (OriginFile in = OriginFile.open(file, "github", null)) {
      for (OriginFile.Entry e = in.next(); e != null; e = in.next()) {
        if (e instanceof OriginFile.Line l) {
          lines.add(l);
        } else {
          invalid.add((OriginFile.Invalid) e);
        }
      }
    }
    return new Read(lines, invalid);
  }

  @Test
  void aCsvHeaderAfterAByteOrderMarkIsRead() throws IOException {
    Path file = write("origins.csv", "\uFEFFurl,visit_type\r\nhttps://a,git\r\n");

    Read contents = read(file);

    assertThat(contents.invalid()).isEmpty();
    assertThat(contents.lines())
        .singleElement()
        .extracting(OriginFile.Line::url)
        .isEqualTo("https://a");
  }

  @Test
  void aJsonLinesFileAfterAByteOrderMarkIsRead() throws IOException {
    Path file = write("origins.jsonl", "\uFEFF{\"url\": \"https://a\", \"visit_type\": \"git\"}\n");

    assertThat(read(file).lines()).hasSize(1);
  }

  @Test
  void aQuotedCellMaySpanLinesAndLaterRecordsKeepTheirLineNumbers() throws IOException {
    Path file =
        write(
            "origins.csv",
            """
            url,visit_type,extra_loader_arguments
            https://a,git,"{""note"":
            ""a, b""}"
            "https://b, with a comma",git,

            https://c,,
            """);

    Read contents = read(file);

    assertThat(contents.lines()).hasSize(2);
    assertThat(contents.lines().get(0).number()).isEqualTo(2);
    assertThat(contents.lines().get(0).extraLoaderArguments().get("note").asText())
        .isEqualTo("a, b");
    assertThat(contents.lines().get(1).url()).isEqualTo("https://b, with a comma");
    assertThat(contents.lines().get(1).number()).isEqualTo(4);
    assertThat(contents.invalid())
        .singleElement()
        .satisfies(
            bad -> assertThat(bad.where(file)).isEqualTo(file + ":6: visit_type"),
            bad -> assertThat(bad.problem()).contains("visit type is required"));
  }

  @Test
  void aRecordWithTooManyCellsNamesItsLine() throws IOException {
    Path file = write("origins.csv", "url,visit_type\nhttps://a,git\nhttps://b,git,extra\n");

    assertThat(read(file).invalid())
        .singleElement()
        .satisfies(bad -> assertThat(bad.where(file)).isEqualTo(file + ":3"));
  }

  @Test
  void anUnknownColumnNamesTheHeaderLineAndColumn() throws IOException {
    Path file = write("origins.csv", "\uFEFF\nurl,kind\nhttps://a,git\n");

    assertThatThrownBy(() -> read(file))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith(file + ":2: kind: unknown column");
  }

  @Test
  void anUnclosedQuoteNamesTheFileAndLine() throws IOException {
    Path file = write("origins.csv", "url,visit_type\nhttps://a,git\n\"https://b,git\n");

    assertThatThrownBy(() -> read(file))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith(file + ":")
        .hasMessageContaining("not readable as CSV");
  }

  @Test
  void bytesThatAreNotUtf8InACsvFileNameTheirLine() throws IOException {
    Path file = dir.resolve("origins.csv");
    Files.write(
        file,
        ("url,visit_type\nhttps://a,git\nhttps://caf\u00e9,git\n")
            .getBytes(StandardCharsets.ISO_8859_1));

    assertThatThrownBy(() -> read(file))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining(file + ":3: not UTF-8 text (byte 0xe9 at column 12)");
  }
}
