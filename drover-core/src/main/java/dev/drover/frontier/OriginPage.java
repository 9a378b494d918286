package dev.drover.frontier;

import java.util.List;

/** One page of listed origins; {@code nextPageToken} is null on the last page. */
public record OriginPage(List<ListedOrigin> origins, String nextPageToken) {}
