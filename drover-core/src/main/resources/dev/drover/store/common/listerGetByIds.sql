SELECT *
FROM lister
WHERE id IN (<ids>)
ORDER BY name, instance_name
