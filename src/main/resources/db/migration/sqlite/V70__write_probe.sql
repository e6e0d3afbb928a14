-- One row that /health/ready rewrites, at most once a second and only after writes failed, to learn
-- whether this node can write again (a full disk, a read-only server) without waiting for traffic.
CREATE TABLE write_probe (
    id INTEGER PRIMARY KEY,
    probed_at BIGINT NOT NULL
);
INSERT INTO write_probe (id, probed_at) VALUES (1, 0);
