package dev.drover.frontier;

import java.util.List;

/**
 * What ingesting a batch of visit results did.
 *
 * @param applied results that changed visit stats
 * @param ignored results skipped: not final, or not newer than the origin's last visit
 * @param disabled origins disabled because of repeated failures, in the order it happened
 */
public record IngestReport(int applied, int ignored, List<OriginKey> disabled) {
  public IngestReport {
    disabled = List.copyOf(disabled);
  }
}
