package dev.drover.app;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.drover.TextLines;
import dev.drover.ValidationException;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of a CSV file, one at a time, read by Jackson's CSV parser (RFC 4180: a quoted cell
 * may hold commas, doubled quotes and line breaks), each record as an array of cells since the
 * header is checked by the caller. Cells are trimmed, blank lines skipped, and a byte-order mark or
 * bytes that are not UTF-8 are handled by {@link TextLines}, which feeds it.
 */
final class CsvRows implements Closeable {
  private static final CsvFactory FACTORY = new CsvFactory();

  /**
   * One record: the line it starts on, its number among the records (1 is the header) and cells.
   */
  record Row(int line, int record, List<String> cells) {}

  private final Path file;
  private final TextLines lines;
  private final CsvParser parser;
  private int records;

  private CsvRows(Path file, TextLines lines, CsvParser parser) {
    this.file = file;
    this.lines = lines;
    this.parser = parser;
  }

  /** Opens {@code file}; a missing or unreadable one is refused naming {@code field}. */
  static CsvRows open(String field, Path file) {
    TextLines lines = TextLines.open(field, file);
    try {
      CsvParser parser = FACTORY.createParser(new LinesReader(lines));
      parser.setSchema(CsvSchema.emptySchema());
      parser.enable(CsvParser.Feature.TRIM_SPACES);
      parser.enable(CsvParser.Feature.SKIP_EMPTY_LINES);
      return new CsvRows(file, lines, parser);
    } catch (IOException e) {
      lines.close();
      throw new ValidationException(field, "cannot read '" + file + "': " + e.getMessage());
    }
  }

  /** The next record, or null at the end; a record the parser cannot read is refused. */
  Row next() {
    Row row;
    do {
      row = read();
    } while (row != null && row.cells().size() == 1 && row.cells().get(0).isEmpty());
    return row;
  }

  /** The next record, a line of blanks included (one empty cell). */
  private Row read() {
    try {
      JsonToken token = parser.nextToken();
      if (token == null) {
        return null;
      }
      int line = -1; // the parser reports a record's start line with its first cell
      List<String> cells = new ArrayList<>();
      while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
        if (token == null) {
          throw new ValidationException(file + ":" + line, "the record does not end");
        }
        if (line < 0) {
          line = parser.currentTokenLocation().getLineNr();
        }
        cells.add(parser.getText().strip());
      }
      if (!(cells.size() == 1 && cells.get(0).isEmpty())) {
        records++;
      }
      return new Row(line, records, cells);
    } catch (IOException e) {
      // the token location is where the failing record began (an unclosed quote fails at the end)
      int line = parser.currentTokenLocation().getLineNr();
      String problem =
          e instanceof com.fasterxml.jackson.core.JsonProcessingException j
              ? j.getOriginalMessage()
              : e.getMessage();
      throw new ValidationException(
          file + ":" + Math.max(line, 1), "not readable as CSV: " + firstLine(problem));
    }
  }

  private static String firstLine(String text) {
    return text == null ? "" : text.lines().findFirst().orElse("");
  }

  @Override
  public void close() {
    try {
      parser.close();
    } catch (IOException e) {
      // read only: nothing to lose
    }
    lines.close();
  }

  /** Lines back into characters for the parser, each ended by {@code \n}. */
  private static final class LinesReader extends Reader {
    private final TextLines lines;
    private String current = "";
    private int pos;
    private boolean done;

    LinesReader(TextLines lines) {
      this.lines = lines;
    }

    @Override
    public int read(char[] to, int off, int len) {
      if (len == 0) {
        return 0;
      }
      int n = 0;
      while (n < len) {
        if (pos == current.length()) {
          if (done) {
            break;
          }
          String next = lines.next();
          if (next == null) {
            done = true;
            break;
          }
          current = next + "\n";
          pos = 0;
        }
        int take = Math.min(len - n, current.length() - pos);
        current.getChars(pos, pos + take, to, off + n);
        pos += take;
        n += take;
      }
      return n == 0 ? -1 : n;
    }

    @Override
    public void close() {
      lines.close();
    }
  }
}
