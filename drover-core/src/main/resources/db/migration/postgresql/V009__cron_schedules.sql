-- Cron schedules: a task type may run its recurring tasks at the fire times of a Unix cron
-- expression (five fields) read in an IANA time zone, instead of on an adaptive interval. Drover
-- validates both before writing; the zone is stored whenever the cron is (UTC by default).
ALTER TABLE task_type ADD COLUMN cron text;
ALTER TABLE task_type ADD COLUMN time_zone text;
ALTER TABLE task_type ADD CONSTRAINT task_type_cron_has_zone
  CHECK ((cron IS NULL) = (time_zone IS NULL));
