-- PostgreSQL's V026 moves the counting of the changes that give or take an owner into the
-- statements that make them. On SQLite the claims count themselves since V025, and its row trigger
-- counts the rest, owners taken away included, at no more cost than the statements would; nothing
-- changes here. The version keeps both dialects' schemas numbered alike (MigrationsTest).
SELECT 1;
