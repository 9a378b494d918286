-- The process table: one row per runner process, and the leader lease.
CREATE TABLE runner (
  name              text PRIMARY KEY,
  host              text NOT NULL,
  pid               bigint NOT NULL,
  -- With pid, tells a live runner from a later process that reused its pid.
  pid_started       timestamptz,
  -- What the runner guards: host and data dir. One active runner per gate; NULL for no gate.
  gate              text,
  state             text NOT NULL CHECK (state IN ('active', 'waiting')),
  started           timestamptz NOT NULL,
  heartbeat         timestamptz NOT NULL,
  -- A newcomer asking this runner to stop, and when it will stop waiting for it.
  stop_requested_by text,
  stop_deadline     timestamptz
);

-- The gate: at most one active runner per data dir, whoever races.
CREATE UNIQUE INDEX runner_one_active_per_gate ON runner (gate) WHERE state = 'active';

-- Expiring leases on singleton services (the rescuer, pruning, the visit scheduler).
CREATE TABLE leader (
  service     text PRIMARY KEY,
  holder      text NOT NULL,
  lease_until timestamptz NOT NULL
);
