package dev.drover.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The origins of the HTTP API's {@code POST /origins}: each an object with the keys of a line of
 * {@code origin record}'s file, its lister and instance defaulting to the body's.
 */
final class OriginBody {
  private OriginBody() {}

  /** The origins to record; the first bad one is refused naming it, as {@code origins[i].key}. */
  static List<ListedOrigin> read(Drover drover, JsonNode origins, String lister, String instance) {
    Map<String, Lister> listers = new HashMap<>();
    List<ListedOrigin> read = new ArrayList<>(origins.size());
    for (int i = 0; i < origins.size(); i++) {
      OriginFile.Entry e = OriginFile.entry(i, origins.get(i), lister, instance);
      OriginFile.Invalid bad =
          e instanceof OriginFile.Line l
              ? l.unrecordable(l.lister(drover, listers))
              : (OriginFile.Invalid) e;
      if (bad != null) {
        throw new ValidationException(
            "origins[" + i + "]" + (bad.key() == null ? "" : "." + bad.key()), bad.problem());
      }
      OriginFile.Line l = (OriginFile.Line) e;
      read.add(l.origin(l.lister(drover, listers)));
    }
    return read;
  }
}
