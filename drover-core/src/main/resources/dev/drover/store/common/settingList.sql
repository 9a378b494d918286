SELECT * FROM setting ORDER BY name
