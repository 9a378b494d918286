-- Records that an operator disabled these tasks (a disabled task without it failed for good).
UPDATE task SET disabled_by = 'operator' WHERE id IN (<ids>) AND status = 'disabled'
