package dev.drover.frontier;

import static dev.drover.ValidationException.check;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.ValidationException;
import java.time.Instant;
import java.util.UUID;

/**
 * An origin as one lister listed it, keyed by (lister, url, visit type). The same url and visit
 * type may be listed by several listers.
 *
 * @param listerId the lister that listed it
 * @param url where the origin lives
 * @param visitType the kind of visit (loader), e.g. {@code git}
 * @param extraLoaderArguments passed to the visit as keyword arguments
 * @param enabled whether it is visited; disabled after repeated failures, enabled again by a
 *     listing
 * @param firstSeen when it was first listed (set by the store, never changed)
 * @param lastSeen when it was last listed (set by the store)
 * @param lastUpdate when the forge says it last changed, or null when the forge does not say
 * @param isFork whether the forge says it is a fork, or null
 * @param forkedFromUrl what it was forked from, or null
 */
public record ListedOrigin(
    UUID listerId,
    String url,
    String visitType,
    ObjectNode extraLoaderArguments,
    boolean enabled,
    Instant firstSeen,
    Instant lastSeen,
    Instant lastUpdate,
    Boolean isFork,
    String forkedFromUrl) {

  public ListedOrigin {
    check(listerId != null, "lister_id", "a listed origin needs a lister");
    check(url != null && !url.isBlank(), "url", "a listed origin needs a url");
    check(
        visitType != null && !visitType.isBlank(),
        "visit_type",
        "a listed origin needs a visit type");
    storable("url", url);
    storable("visit_type", visitType);
    if (forkedFromUrl != null) {
      storable("forked_from_url", forkedFromUrl);
    }
    extraLoaderArguments =
        extraLoaderArguments == null ? Json.object() : extraLoaderArguments.deepCopy();
  }

  private static void storable(String field, String text) {
    String problem = Json.unstorable(text);
    if (problem != null) {
      throw new ValidationException(field, problem);
    }
  }

  /** An enabled origin to record, with no forge details. */
  public static ListedOrigin of(UUID listerId, String url, String visitType) {
    return new ListedOrigin(listerId, url, visitType, null, true, null, null, null, null, null);
  }

  public OriginKey key() {
    return new OriginKey(url, visitType);
  }

  public ListedOrigin withLastUpdate(Instant t) {
    return new ListedOrigin(
        listerId,
        url,
        visitType,
        extraLoaderArguments,
        enabled,
        firstSeen,
        lastSeen,
        t,
        isFork,
        forkedFromUrl);
  }

  public ListedOrigin withEnabled(boolean e) {
    return new ListedOrigin(
        listerId,
        url,
        visitType,
        extraLoaderArguments,
        e,
        firstSeen,
        lastSeen,
        lastUpdate,
        isFork,
        forkedFromUrl);
  }

  public ListedOrigin withExtraLoaderArguments(ObjectNode args) {
    return new ListedOrigin(
        listerId,
        url,
        visitType,
        args,
        enabled,
        firstSeen,
        lastSeen,
        lastUpdate,
        isFork,
        forkedFromUrl);
  }

  public ListedOrigin withFork(Boolean fork, String fromUrl) {
    return new ListedOrigin(
        listerId,
        url,
        visitType,
        extraLoaderArguments,
        enabled,
        firstSeen,
        lastSeen,
        lastUpdate,
        fork,
        fromUrl);
  }
}
