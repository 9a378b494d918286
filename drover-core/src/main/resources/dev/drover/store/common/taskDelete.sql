-- Deletes tasks whose runs were deleted in the same transaction.
DELETE FROM task WHERE id IN (<ids>)
