SELECT *
FROM lister
ORDER BY name, instance_name
