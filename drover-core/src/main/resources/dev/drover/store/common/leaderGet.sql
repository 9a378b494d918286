SELECT * FROM leader WHERE service = :service
