-- Active only if no other runner is active at the gate; the unique index runner_one_active_per_gate
-- settles a race between two newcomers that both saw the gate free.
UPDATE runner
SET state = 'active',
    heartbeat = :now,
    stop_requested_by = NULL,
    stop_deadline = NULL
WHERE name = :name
  AND NOT EXISTS (SELECT 1 FROM runner other
                  WHERE other.gate = runner.gate AND other.state = 'active' AND other.name <> runner.name)
