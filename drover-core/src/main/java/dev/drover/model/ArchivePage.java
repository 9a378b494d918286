package dev.drover.model;

import java.util.List;

/** One page of archivable runs; {@code nextPageToken} is null on the last page. */
public record ArchivePage(List<ArchivableRun> runs, String nextPageToken) {}
