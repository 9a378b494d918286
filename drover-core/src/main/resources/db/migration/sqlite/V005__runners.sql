-- The process table: one row per runner process, and the leader lease. Times are epoch ms.
CREATE TABLE runner (
  name              TEXT PRIMARY KEY,
  host              TEXT NOT NULL,
  pid               INTEGER NOT NULL,
  -- With pid, tells a live runner from a later process that reused its pid.
  pid_started       INTEGER,
  -- What the runner guards: host and data dir. One active runner per gate; NULL for no gate.
  gate              TEXT,
  state             TEXT NOT NULL CHECK (state IN ('active', 'waiting')),
  started           INTEGER NOT NULL,
  heartbeat         INTEGER NOT NULL,
  -- A newcomer asking this runner to stop, and when it will stop waiting for it.
  stop_requested_by TEXT,
  stop_deadline     INTEGER
);

-- The gate: at most one active runner per data dir, whoever races.
CREATE UNIQUE INDEX runner_one_active_per_gate ON runner (gate) WHERE state = 'active';

-- Expiring leases on singleton services (the rescuer, pruning, the visit scheduler).
CREATE TABLE leader (
  service     TEXT PRIMARY KEY,
  holder      TEXT NOT NULL,
  lease_until INTEGER NOT NULL
);
