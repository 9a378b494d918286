INSERT INTO task (type, arguments, arguments_hash, next_run, current_interval_ms, status, policy,
                  retries_left, priority, concurrency_key)
VALUES (:type, :arguments, :arguments_hash, :next_run, :current_interval_ms, :status, :policy,
        :retries_left, :priority, :concurrency_key)
RETURNING *
