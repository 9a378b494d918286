package dev.drover.app;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table: a header and rows, printed in aligned columns; null cells show as {@code -}.
 */
final class Table {
  private static final String GAP = "  ";
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();
  private int[] minWidths = new int[0];

  Table(String... header) {
    this.header = List.of(header);
  }

  Table row(Object... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException(
          "expected " + header.size() + " cells, got " + cells.length);
    }
    rows.add(Arrays.stream(cells).map(c -> c == null ? "-" : c.toString()).toList());
    return this;
  }

  /**
   * Columns at least this wide (in order), so that tables printed one after another, as a followed
   * log is, stay aligned while their cells fit.
   */
  Table minWidths(int... widths) {
    minWidths = widths.clone();
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  void print(PrintWriter out) {
    print(out, true);
  }

  /** Prints the rows, under the header if {@code withHeader}. */
  void print(PrintWriter out, boolean withHeader) {
    int[] widths = new int[header.size()];
    System.arraycopy(minWidths, 0, widths, 0, Math.min(minWidths.length, widths.length));
    for (List<String> row : withHeader()) {
      for (int i = 0; i < widths.length; i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    for (List<String> row : withHeader ? withHeader() : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < widths.length; i++) {
        line.append(row.get(i));
        if (i < widths.length - 1) {
          line.append(" ".repeat(widths[i] - row.get(i).length())).append(GAP);
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }

  private List<List<String>> withHeader() {
    List<List<String>> all = new ArrayList<>();
    all.add(header);
    all.addAll(rows);
    return all;
  }
}
