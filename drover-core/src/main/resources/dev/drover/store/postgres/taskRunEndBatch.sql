-- taskRunEndMany for a whole batch in one statement, the rows as parallel arrays (times in epoch
-- milliseconds, as stored; a null start keeps the stored one).
UPDATE task_run r
SET started = COALESCE(timestamptz 'epoch' + u.started_ms * interval '1 millisecond', r.started),
    ended = :ended,
    status = u.status,
    metadata = u.metadata::jsonb
FROM unnest(:ids::bigint[], :started_ms::bigint[], :statuses::text[], :metadata::text[])
     AS u (id, started_ms, status, metadata)
WHERE r.id = u.id
