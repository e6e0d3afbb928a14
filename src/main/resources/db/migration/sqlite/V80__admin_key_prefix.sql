-- The admin key's display prefix (never the key), so start-up can say which key is in force.
ALTER TABLE admin_keys ADD COLUMN prefix TEXT;
