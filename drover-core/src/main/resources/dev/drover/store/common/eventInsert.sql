INSERT INTO event (at, kind, runner, task, detail)
VALUES (:at, :kind, :runner, :task, :detail)
