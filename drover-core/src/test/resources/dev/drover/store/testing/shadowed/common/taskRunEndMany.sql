-- Test fixture: a common file shadowing the dialect query taskRunEndMany.
SELECT 1
