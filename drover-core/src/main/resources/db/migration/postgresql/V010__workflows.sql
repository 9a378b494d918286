-- Workflows and operator control. A task may have a parent (the task whose run spawned it) and a
-- root (the top of its tree; NULL for a task that is its own root). A parent whose run spawned
-- children waits ('waiting_for_children') with a counter of children not yet final, decremented
-- in the transaction that makes a child final, so sealing never scans siblings. An operator may
-- pause tasks ('paused') and task types; 'disabled_by' tells an operator's disable from a task
-- that failed for good; a run stopped by an operator ends 'cancelled'.
ALTER TABLE task DROP CONSTRAINT task_status_check;
ALTER TABLE task ADD CONSTRAINT task_status_check
  CHECK (status IN ('next_run_not_scheduled', 'next_run_scheduled', 'completed', 'disabled',
                    'waiting_for_children', 'paused'));
ALTER TABLE task
  ADD COLUMN parent           bigint,
  ADD COLUMN root             bigint,
  ADD COLUMN children_pending integer NOT NULL DEFAULT 0 CHECK (children_pending >= 0),
  ADD COLUMN children_total   integer NOT NULL DEFAULT 0,
  ADD COLUMN children_failed  integer NOT NULL DEFAULT 0,
  ADD COLUMN disabled_by      text CHECK (disabled_by IN ('operator')),
  -- An operator paused the task while it ran: the children its run spawns are created paused.
  ADD COLUMN paused_while_running boolean NOT NULL DEFAULT false;

-- Serve the tree counts (one probe per root and status), the walk from a parent to its children,
-- and the count of tasks an operator disabled. All three are partial, so a task outside any tree
-- and never disabled by an operator (the hot path's tasks) adds no entry to them; an index on
-- (type, status) was tried for the per-type counts and dropped: every claim and completion moves
-- status, so it cost an index write per update while PostgreSQL still counted by a scan.
CREATE INDEX task_disabled_by_operator ON task (type) WHERE disabled_by IS NOT NULL;
CREATE INDEX task_count_by_root_status ON task (root, status) WHERE root IS NOT NULL;
CREATE INDEX task_children_by_parent ON task (parent, id) WHERE parent IS NOT NULL;

ALTER TABLE task_run DROP CONSTRAINT task_run_status_check;
ALTER TABLE task_run ADD CONSTRAINT task_run_status_check
  CHECK (status IN ('scheduled', 'started', 'eventful', 'uneventful', 'failed', 'permfailed',
                    'lost', 'cancelled'));

-- How a parent's outcome follows from its children's, and whether the type is paused (its tasks
-- are not claimed; running work finishes).
ALTER TABLE task_type
  ADD COLUMN children_rule text NOT NULL DEFAULT 'all_succeeded'
    CHECK (children_rule IN ('all_succeeded', 'any_succeeded', 'ignore')),
  ADD COLUMN paused boolean NOT NULL DEFAULT false;
