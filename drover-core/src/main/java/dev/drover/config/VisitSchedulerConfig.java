package dev.drover.config;

import static dev.drover.ValidationException.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.frontier.VisitPolicy;
import dev.drover.model.DurationText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the leader schedules visits: the {@code visit_scheduler} section of a configuration file. It
 * is kept in the store's settings ({@code visit_scheduler.enabled} and one JSON setting per visit
 * type, {@code visit_scheduler.visit_types.<type>}), so whichever runner leads reads the same. A
 * visit type that is not mentioned is scheduled with the default policies.
 *
 * <pre>
 * visit_scheduler:
 *   enabled: true                  # false: no runner schedules visits
 *   visit_types:
 *     git:
 *       enabled: true              # false: visits of this type are not scheduled
 *       policies:                  # policy: weight, or policy: {weight: W, tablesample: PERCENT}
 *         already_visited_order_by_lag: 40
 *         never_visited_oldest_update_first: 40
 *         origins_without_last_update: 20
 *       queue_full_wait: 60s       # longest wait while the queue is full (see VisitQueuePace)
 *       no_origins_wait: 20m       # wait when no policy found an origin
 * </pre>
 *
 * @param enabled whether visits are scheduled at all; null when the file does not say (then yes)
 * @param visitTypes settings per visit type
 */
public record VisitSchedulerConfig(Boolean enabled, Map<String, VisitType> visitTypes) {
  public static final VisitSchedulerConfig NONE = new VisitSchedulerConfig(null, Map.of());
  public static final String ENABLED_SETTING = "visit_scheduler.enabled";
  public static final String TYPE_SETTING_PREFIX = "visit_scheduler.visit_types.";

  public VisitSchedulerConfig {
    visitTypes = Map.copyOf(visitTypes);
  }

  /** Whether the leader schedules visits at all. */
  public boolean isEnabled() {
    return enabled == null || enabled;
  }

  /**
   * One policy's weight in a pass.
   *
   * @param tablesample percentage of the table it considers, or null for all
   */
  public record Share(VisitPolicy policy, double weight, Double tablesample) {
    public Share {
      check(policy != null, "policy", "a share needs a policy");
      check(
          policy != VisitPolicy.FIRST_VISITS_AFTER_LISTING,
          "policies",
          "first_visits_after_listing is scheduled per lister, not by weight");
      check(
          weight >= 0 && Double.isFinite(weight), "weight", "must not be negative, got " + weight);
      check(
          tablesample == null || (tablesample > 0 && tablesample <= 100),
          "tablesample",
          "must be a percentage in (0, 100], got " + tablesample);
    }
  }

  /**
   * The settings of one visit type.
   *
   * @param enabled whether its visits are scheduled
   * @param policies the weighted policies; empty for the defaults
   * @param queueFullWait null for the default
   * @param noOriginsWait null for the default
   */
  public record VisitType(
      boolean enabled, List<Share> policies, Duration queueFullWait, Duration noOriginsWait) {
    public VisitType {
      policies = List.copyOf(policies);
      Set<VisitPolicy> seen = new HashSet<>();
      for (Share s : policies) {
        check(
            seen.add(s.policy()), "policies", "policy " + s.policy().dbName() + " is given twice");
      }
      check(
          policies.isEmpty() || policies.stream().mapToDouble(Share::weight).sum() > 0,
          "policies",
          "the weights add up to zero");
      check(
          queueFullWait == null || (!queueFullWait.isNegative() && !queueFullWait.isZero()),
          "queue_full_wait",
          "must be a positive duration");
      check(
          noOriginsWait == null || (!noOriginsWait.isNegative() && !noOriginsWait.isZero()),
          "no_origins_wait",
          "must be a positive duration");
    }

    ObjectNode toJson() {
      ObjectNode o = Json.object();
      o.put("enabled", enabled);
      ObjectNode ps = o.putObject("policies");
      for (Share s : policies) {
        ObjectNode p = ps.putObject(s.policy().dbName());
        p.put("weight", s.weight());
        if (s.tablesample() != null) {
          p.put("tablesample", s.tablesample());
        }
      }
      if (queueFullWait != null) {
        o.put("queue_full_wait", DurationText.format(queueFullWait));
      }
      if (noOriginsWait != null) {
        o.put("no_origins_wait", DurationText.format(noOriginsWait));
      }
      return o;
    }

    static VisitType fromJson(JsonNode o) {
      List<Share> shares = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = o.path("policies").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        JsonNode sample = e.getValue().get("tablesample");
        shares.add(
            new Share(
                VisitPolicy.parse(e.getKey()),
                e.getValue().path("weight").asDouble(),
                sample == null || sample.isNull() ? null : sample.asDouble()));
      }
      return new VisitType(
          o.path("enabled").asBoolean(true),
          shares,
          duration(o, "queue_full_wait"),
          duration(o, "no_origins_wait"));
    }

    private static Duration duration(JsonNode o, String field) {
      JsonNode d = o.get(field);
      return d == null || d.isNull() ? null : DurationText.parse(field, d.asText());
    }
  }

  /** The settings this section is kept as. */
  public Map<String, String> settings() {
    Map<String, String> out = new LinkedHashMap<>();
    if (enabled != null) {
      out.put(ENABLED_SETTING, Boolean.toString(enabled));
    }
    visitTypes.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> out.put(TYPE_SETTING_PREFIX + e.getKey(), Json.canonical(e.getValue().toJson())));
    return out;
  }

  /** Reads the section back from the store's settings; settings it cannot read are refused. */
  public static VisitSchedulerConfig fromSettings(Map<String, String> settings) {
    Boolean enabled =
        settings.containsKey(ENABLED_SETTING)
            ? Boolean.parseBoolean(settings.get(ENABLED_SETTING))
            : null;
    Map<String, VisitType> types = new LinkedHashMap<>();
    settings.forEach(
        (name, value) -> {
          if (name.startsWith(TYPE_SETTING_PREFIX)) {
            try {
              types.put(
                  name.substring(TYPE_SETTING_PREFIX.length()),
                  VisitType.fromJson(Json.read(value)));
            } catch (RuntimeException e) {
              throw new ValidationException(
                  name, "cannot read the stored setting: " + e.getMessage());
            }
          }
        });
    return new VisitSchedulerConfig(enabled, types);
  }
}
