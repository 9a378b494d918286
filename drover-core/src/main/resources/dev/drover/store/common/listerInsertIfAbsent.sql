-- get-or-create: the first definition of (name, instance) wins; the caller reads the stored row.
INSERT INTO lister (id, name, instance_name, created, current_state, updated, first_visits_queue_prefix)
VALUES (:id, :name, :instance_name, :now, '{}', :now, :first_visits_queue_prefix)
ON CONFLICT (name, instance_name) DO NOTHING
