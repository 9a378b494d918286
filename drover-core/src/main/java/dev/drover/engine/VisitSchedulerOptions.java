package dev.drover.engine;

import static dev.drover.ValidationException.check;

import dev.drover.frontier.VisitPolicy;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How a {@link VisitScheduler} schedules the visits of one visit type (reference section 3,
 * "schedule-recurrent"). Validated on construction.
 *
 * @param visitType the kind of visit; its visits run as one-shot tasks of type {@code
 *     load-<visitType>}
 * @param shares the policies that share each pass's free queue slots, by weight
 * @param queueFullWait wait when less than 5 % of the queue is free (the leader waits less when the
 *     queue drains faster: {@link VisitQueuePace})
 * @param noOriginsWait wait when no policy found an origin
 * @param maxSplay each wait gets a random extra up to this, so schedulers of many types spread out
 */
public record VisitSchedulerOptions(
    String visitType,
    List<Share> shares,
    Duration queueFullWait,
    Duration noOriginsWait,
    Duration maxSplay) {
  public static final Duration DEFAULT_QUEUE_FULL_WAIT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_NO_ORIGINS_WAIT = Duration.ofSeconds(1200);
  public static final Duration DEFAULT_MAX_SPLAY = Duration.ofSeconds(5);
  private static final Set<String> ONE_SHOT_TYPES =
      Set.of("content", "tarball-directory", "git-checkout", "hg-checkout", "svn-export");
  private static final Set<String> VCS_TYPES = Set.of("hg", "svn", "cvs", "bzr");

  /**
   * One policy's part of a pass.
   *
   * @param policy the policy
   * @param weight its part: it asks for {@code slots × weight / Σ weights} origins
   * @param tablesample the percentage of the table it considers, or null for all
   */
  public record Share(VisitPolicy policy, double weight, Double tablesample) {
    public Share {
      check(policy != null, "policy", "a share needs a policy");
      check(
          policy != VisitPolicy.FIRST_VISITS_AFTER_LISTING,
          "policy",
          "first_visits_after_listing is scheduled per lister, not by weight");
      check(
          weight >= 0 && Double.isFinite(weight), "weight", "must not be negative, got " + weight);
    }
  }

  public VisitSchedulerOptions {
    check(
        visitType != null && !visitType.isBlank(),
        "visit_type",
        "a visit scheduler needs a visit type");
    check(
        shares != null && !shares.isEmpty(),
        "scheduling_policy",
        "a visit scheduler needs at least one policy");
    shares = List.copyOf(shares);
    Set<VisitPolicy> seen = new HashSet<>();
    for (Share s : shares) {
      check(
          seen.add(s.policy()),
          "scheduling_policy",
          "policy " + s.policy().dbName() + " is given twice");
    }
    check(
        shares.stream().mapToDouble(Share::weight).sum() > 0,
        "scheduling_policy",
        "the weights add up to zero");
    queueFullWait = queueFullWait == null ? DEFAULT_QUEUE_FULL_WAIT : queueFullWait;
    noOriginsWait = noOriginsWait == null ? DEFAULT_NO_ORIGINS_WAIT : noOriginsWait;
    maxSplay = maxSplay == null ? DEFAULT_MAX_SPLAY : maxSplay;
  }

  /** The reference's default policies for {@code visitType}. */
  public static VisitSchedulerOptions defaults(String visitType) {
    return new VisitSchedulerOptions(visitType, defaultShares(visitType), null, null, null);
  }

  static List<Share> defaultShares(String visitType) {
    if (ONE_SHOT_TYPES.contains(visitType)) {
      return List.of(new Share(VisitPolicy.STOP_AFTER_SUCCESS, 100, null));
    }
    // git is big enough that each policy reads a 0.1 % sample of the table's pages.
    Double sample = visitType.equals("git") ? 0.1 : null;
    if (sample != null || VCS_TYPES.contains(visitType)) {
      return List.of(
          new Share(VisitPolicy.ALREADY_VISITED_ORDER_BY_LAG, 49, sample),
          new Share(VisitPolicy.NEVER_VISITED_OLDEST_UPDATE_FIRST, 49, sample),
          new Share(VisitPolicy.ORIGINS_WITHOUT_LAST_UPDATE, 2, sample));
    }
    return List.of(
        new Share(VisitPolicy.ALREADY_VISITED_ORDER_BY_LAG, 40, null),
        new Share(VisitPolicy.NEVER_VISITED_OLDEST_UPDATE_FIRST, 40, null),
        new Share(VisitPolicy.ORIGINS_WITHOUT_LAST_UPDATE, 20, null));
  }

  /** The task type whose one-shot tasks run the visits. */
  public String taskType() {
    return "load-" + visitType;
  }

  public VisitSchedulerOptions withShares(List<Share> s) {
    return new VisitSchedulerOptions(visitType, s, queueFullWait, noOriginsWait, maxSplay);
  }

  public VisitSchedulerOptions withWaits(Duration queueFull, Duration noOrigins, Duration splay) {
    return new VisitSchedulerOptions(visitType, shares, queueFull, noOrigins, splay);
  }
}
