package dev.drover.frontier;

import static dev.drover.ValidationException.check;

import java.util.List;
import java.util.UUID;

/**
 * Which listed origins to read, one page at a time. Filters are ANDed; {@code url} wins over {@code
 * urls}. Pages follow (lister, url, visit type) order; pass the previous page's token to read the
 * next.
 *
 * @param listerId only this lister's origins, or null for all
 * @param url only this url, or null
 * @param urls only these urls (ignored when empty or when {@code url} is set)
 * @param enabled only enabled (true) or disabled (false) origins; null for both
 * @param limit page size, positive
 * @param pageToken the previous page's {@link OriginPage#nextPageToken()}, or null for the first
 *     page
 */
public record OriginQuery(
    UUID listerId, String url, List<String> urls, Boolean enabled, int limit, String pageToken) {
  public static final int DEFAULT_LIMIT = 1000;

  /** Enabled origins of every lister, 1000 a page. */
  public static final OriginQuery ENABLED =
      new OriginQuery(null, null, List.of(), true, DEFAULT_LIMIT, null);

  public OriginQuery {
    urls = urls == null ? List.of() : List.copyOf(urls);
    check(limit > 0, "limit", "must be positive, got " + limit);
  }

  public OriginQuery lister(UUID id) {
    return new OriginQuery(id, url, urls, enabled, limit, pageToken);
  }

  public OriginQuery url(String u) {
    return new OriginQuery(listerId, u, urls, enabled, limit, pageToken);
  }

  public OriginQuery urls(List<String> us) {
    return new OriginQuery(listerId, url, us, enabled, limit, pageToken);
  }

  public OriginQuery enabled(Boolean e) {
    return new OriginQuery(listerId, url, urls, e, limit, pageToken);
  }

  public OriginQuery limit(int n) {
    return new OriginQuery(listerId, url, urls, enabled, n, pageToken);
  }

  public OriginQuery page(String token) {
    return new OriginQuery(listerId, url, urls, enabled, limit, token);
  }
}
