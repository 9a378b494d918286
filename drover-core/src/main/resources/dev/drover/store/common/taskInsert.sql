INSERT INTO task (type, arguments, arguments_hash, next_run, current_interval_ms, status, policy,
                  retries_left, priority)
VALUES (:type, :arguments, :arguments_hash, :next_run, :current_interval_ms, :status, :policy,
        :retries_left, :priority)
RETURNING *
