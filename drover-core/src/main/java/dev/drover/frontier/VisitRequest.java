package dev.drover.frontier;

import static dev.drover.ValidationException.check;

import java.util.UUID;

/**
 * What to grab: up to {@code count} origins of {@code visitType} chosen by {@code policy}.
 *
 * @param visitType the kind of visit
 * @param count most origins to return; zero returns none
 * @param policy how to choose and order them
 * @param enabled grab enabled origins (true, the default) or disabled ones (false)
 * @param listerId only this lister's origins, or null
 * @param listerName only origins of listers of this name, or null
 * @param listerInstanceName only origins of listers of this instance, or null
 * @param cooldowns which cooldowns apply ({@link Cooldowns#DEFAULT} unless given)
 * @param tablesample percentage (0 to 100] of the table to consider, or null for all of it:
 *     PostgreSQL samples table pages ({@code TABLESAMPLE SYSTEM}), SQLite blocks of 32 rowids
 * @param dryRun choose, but record nothing
 */
public record VisitRequest(
    String visitType,
    int count,
    VisitPolicy policy,
    boolean enabled,
    UUID listerId,
    String listerName,
    String listerInstanceName,
    Cooldowns cooldowns,
    Double tablesample,
    boolean dryRun) {

  public VisitRequest {
    check(
        visitType != null && !visitType.isBlank(),
        "visit_type",
        "a visit request needs a visit type");
    check(count >= 0, "count", "must not be negative, got " + count);
    check(policy != null, "policy", "a visit request needs a policy");
    cooldowns = cooldowns == null ? Cooldowns.DEFAULT : cooldowns;
    check(
        tablesample == null || (tablesample > 0 && tablesample <= 100),
        "tablesample",
        "must be a percentage in (0, 100], got " + tablesample);
    check(
        policy != VisitPolicy.FIRST_VISITS_AFTER_LISTING
            || listerId != null
            || (listerName != null && listerInstanceName != null),
        "lister",
        "policy first_visits_after_listing needs a lister id, or a lister name and instance");
  }

  /** A request with the default filters and cooldowns. */
  public static VisitRequest of(String visitType, int count, VisitPolicy policy) {
    return builder(visitType, count, policy).build();
  }

  public static Builder builder(String visitType, int count, VisitPolicy policy) {
    return new Builder(visitType, count, policy);
  }

  /** As {@link #builder(String, int, VisitPolicy)}, parsing the policy's name. */
  public static Builder builder(String visitType, int count, String policy) {
    return new Builder(visitType, count, VisitPolicy.parse(policy));
  }

  /** Whether the request names a lister by id, name or instance. */
  public boolean filtersListers() {
    return listerId != null || listerName != null || listerInstanceName != null;
  }

  /** Builds a {@link VisitRequest}; validated by {@link #build()}. */
  public static final class Builder {
    private final String visitType;
    private final int count;
    private final VisitPolicy policy;
    private boolean enabled = true;
    private UUID listerId;
    private String listerName;
    private String listerInstanceName;
    private Cooldowns cooldowns = Cooldowns.DEFAULT;
    private Double tablesample;
    private boolean dryRun;

    private Builder(String visitType, int count, VisitPolicy policy) {
      this.visitType = visitType;
      this.count = count;
      this.policy = policy;
    }

    public Builder enabled(boolean v) {
      enabled = v;
      return this;
    }

    public Builder lister(UUID id) {
      listerId = id;
      return this;
    }

    /** Listers of this name and, if not null, this instance. */
    public Builder lister(String name, String instance) {
      listerName = name;
      listerInstanceName = instance;
      return this;
    }

    public Builder cooldowns(Cooldowns v) {
      cooldowns = v;
      return this;
    }

    public Builder tablesample(Double percent) {
      tablesample = percent;
      return this;
    }

    public Builder dryRun(boolean v) {
      dryRun = v;
      return this;
    }

    public VisitRequest build() {
      return new VisitRequest(
          visitType,
          count,
          policy,
          enabled,
          listerId,
          listerName,
          listerInstanceName,
          cooldowns,
          tablesample,
          dryRun);
    }
  }
}
