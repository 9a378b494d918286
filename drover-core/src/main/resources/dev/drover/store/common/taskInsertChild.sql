-- Creates one child of a parent whose run ended in this transaction (sent in a JDBC batch). Never
-- de-duplicated: a child belongs to its parent's counters, so it must not be merged with a task
-- of another tree. Serves task_children_by_parent and task_count_by_root_status.
INSERT INTO task (type, arguments, arguments_hash, next_run, current_interval_ms, status, policy,
                  retries_left, priority, concurrency_key, parent, root)
VALUES (:type, :arguments, :hash, :next_run, :interval_ms, :status, :policy, :retries_left,
        :priority, :concurrency_key, :parent, :root)
