-- Creating a task type is idempotent: the first definition wins.
INSERT INTO task_type (name, description, default_interval_ms, min_interval_ms, max_interval_ms,
                       backoff_factor, max_queue_length, num_retries, retry_delay_ms, lease_ms,
                       timeout_ms, max_workers, worker_group, command, working_dir, env,
                       concurrency_key, max_per_key, cron, time_zone, children_rule,
                       run_history)
VALUES (:name, :description, :default_interval_ms, :min_interval_ms, :max_interval_ms,
        :backoff_factor, :max_queue_length, :num_retries, :retry_delay_ms, :lease_ms,
        :timeout_ms, :max_workers, :worker_group, :command, :working_dir, :env,
        :concurrency_key, :max_per_key, :cron, :time_zone, :children_rule,
        :run_history)
ON CONFLICT (name) DO NOTHING
