INSERT INTO worker_group (name, max_workers) VALUES (:name, :max_workers)
ON CONFLICT (name) DO UPDATE SET max_workers = excluded.max_workers
