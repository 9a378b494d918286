-- Takes the lease if nobody holds it, it expired, or the holder renews it. On PostgreSQL the
-- conflicting row is locked and the WHERE re-read, so of two racing runners exactly one wins.
INSERT INTO leader (service, holder, lease_until)
VALUES (:service, :holder, :until)
ON CONFLICT (service) DO UPDATE
SET holder = excluded.holder,
    lease_until = excluded.lease_until
WHERE leader.holder = excluded.holder
   OR leader.lease_until <= :now
RETURNING holder
