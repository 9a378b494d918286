-- Pauses or resumes a task type; running work of a paused type finishes.
UPDATE task_type SET paused = :paused WHERE name = :name
