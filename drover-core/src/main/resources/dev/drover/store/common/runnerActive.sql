-- Served by runner_one_active_per_gate.
SELECT * FROM runner WHERE gate = :gate AND state = 'active'
