package dev.drover.app;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.model.RunnerRecord;
import dev.drover.store.LeaderLease;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code drover runners}: the process table and which runner leads. */
@Command(
    name = "runners",
    description = {
      "List the registered runner processes: host, pid, state at their gate (active, or "
          + "waiting to take over "
          + "or as a standby), last heartbeat, and which one is the leader (runs the rescuer, "
          + "prunes dead "
          + "runners and schedules origin visits). A runner that died is removed by the next "
          + "runner or the leader."
    })
final class RunnersCommand extends BaseCommand {
  /** The leader lease of runners; see dev.drover.engine.Leadership. */
  static final String LEADER_SERVICE = "runner";

  @Mixin JsonOption output;

  @Override
  public Integer call() {
    try (Drover drover = root().open(false)) {
      List<RunnerRecord> runners = drover.store().runners().list();
      String leader =
          drover.store().runners().leader(LEADER_SERVICE).map(LeaderLease::holder).orElse(null);
      if (output.json) {
        JsonViews.print(out(), json(runners, leader));
      } else if (runners.isEmpty()) {
        out().println("no runners registered");
      } else {
        Table table =
            new Table(
                "NAME",
                "HOST",
                "PID",
                "STATE",
                "LEADER",
                "STARTED",
                "HEARTBEAT",
                "STOP REQUESTED BY");
        for (RunnerRecord r : runners) {
          table.row(
              r.name(),
              r.host(),
              r.pid(),
              r.state().dbName(),
              r.name().equals(leader) ? "yes" : "",
              Tables.time(r.started()),
              Tables.time(r.heartbeat()),
              r.stopRequestedBy());
        }
        table.print(out());
      }
    }
    return 0;
  }

  static ArrayNode json(List<RunnerRecord> runners, String leader) {
    ArrayNode array = Json.array();
    for (RunnerRecord r : runners) {
      ObjectNode o = array.addObject();
      o.put("name", r.name());
      o.put("host", r.host());
      o.put("pid", r.pid());
      o.put("gate", r.gate());
      o.put("state", r.state().dbName());
      o.put("leader", r.name().equals(leader));
      o.put("started", Tables.time(r.started()));
      o.put("heartbeat", Tables.time(r.heartbeat()));
      o.put("stop_requested_by", r.stopRequestedBy());
      Optional.ofNullable(r.stopDeadline()).ifPresent(d -> o.put("stop_deadline", Tables.time(d)));
    }
    return array;
  }
}
