UPDATE task_type
SET description = :description,
    default_interval_ms = :default_interval_ms,
    min_interval_ms = :min_interval_ms,
    max_interval_ms = :max_interval_ms,
    backoff_factor = :backoff_factor,
    max_queue_length = :max_queue_length,
    num_retries = :num_retries,
    retry_delay_ms = :retry_delay_ms,
    lease_ms = :lease_ms,
    timeout_ms = :timeout_ms,
    max_workers = :max_workers,
    worker_group = :worker_group,
    command = :command,
    working_dir = :working_dir,
    env = :env
WHERE name = :name
