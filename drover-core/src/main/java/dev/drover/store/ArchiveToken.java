package dev.drover.store;

import dev.drover.ValidationException;

/**
 * Where the next archive page starts: strictly after (task id, run id). Written as {@code
 * "12:345"}.
 */
record ArchiveToken(long taskId, long runId) {
  private static final ArchiveToken START = new ArchiveToken(-1, -1);

  static ArchiveToken parse(String token) {
    if (token == null || token.isBlank()) {
      return START;
    }
    String[] parts = token.split(":");
    try {
      if (parts.length == 2) {
        return new ArchiveToken(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ValidationException(
        "page_token", "'" + token + "' is not a page token from a previous page");
  }

  @Override
  public String toString() {
    return taskId + ":" + runId;
  }
}
