INSERT INTO runner (name, host, pid, pid_started, gate, state, started, heartbeat)
VALUES (:name, :host, :pid, :pid_started, :gate, :state, :started, :heartbeat)
