package dev.drover.app.http;

import static dev.drover.app.http.Dashboard.escape;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** A table of JSON objects (as the API answers them), one row each, every value escaped. */
final class JsonTable {
  private JsonTable() {}

  static String of(String id, Iterable<JsonNode> rows, List<String> columns) {
    StringBuilder html = new StringBuilder("<table id=\"").append(escape(id)).append("\"><tr>");
    columns.forEach(c -> html.append("<th>").append(escape(c)).append("</th>"));
    html.append("</tr>");
    for (JsonNode row : rows) {
      html.append("<tr>");
      for (String c : columns) {
        JsonNode v = row.path(c);
        html.append(v.isNumber() ? "<td class=\"n\">" : "<td>")
            .append(
                v.isMissingNode() || v.isNull()
                    ? ""
                    : escape(v.isValueNode() ? v.asText() : v.toString()))
            .append("</td>");
      }
      html.append("</tr>");
    }
    return html.append("</table>\n").toString();
  }
}
