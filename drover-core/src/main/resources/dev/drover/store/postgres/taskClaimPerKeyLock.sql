-- PostgreSQL differs: an advisory lock makes claimers of one per-key type take turns.
-- Makes claimers of one per-key type take turns until commit, so each one's per-key count
-- (taskClaimPerKey) is read after every earlier claim committed: under READ COMMITTED every
-- statement sees what was committed before it began. The schema is in the key so that Drover
-- stores in other schemas of the same database do not wait on each other.
SELECT pg_advisory_xact_lock(hashtext('drover-claim:' || current_schema() || ':' || :type))
