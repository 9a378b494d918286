-- Cron schedules: a task type may run its recurring tasks at the fire times of a Unix cron
-- expression (five fields) read in an IANA time zone, instead of on an adaptive interval. Drover
-- validates both before writing; the zone is stored whenever the cron is (UTC by default).
-- SQLite cannot add a table constraint, so the pairing is a column constraint of time_zone.
ALTER TABLE task_type ADD COLUMN cron TEXT;
ALTER TABLE task_type ADD COLUMN time_zone TEXT CHECK ((time_zone IS NULL) = (cron IS NULL));
