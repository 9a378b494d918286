-- Whether a task type is paused: its tasks are not claimed. A primary-key probe per claim.
SELECT paused FROM task_type WHERE name = :name
