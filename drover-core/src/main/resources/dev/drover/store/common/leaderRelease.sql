DELETE FROM leader WHERE service = :service AND holder = :holder
