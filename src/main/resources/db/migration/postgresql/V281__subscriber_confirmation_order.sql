-- Which notices a confirmed subscriber gets, by commit order instead of by clocks (issue 41): the seq of
-- the last notice committed before the confirmation did. Confirming reads it under the outbox's lock, the
-- lock under which every notice draws its seq and commits, so a notice is either before the confirmation
-- (not sent) or after it (sent, and its fan-out sees the subscriber). Comparing confirmed_at with a
-- notice's created_at mixed two nodes' clocks and missed a confirmation that had not committed yet.
ALTER TABLE status_subscribers ADD COLUMN confirmed_after_notice BIGINT;

-- Subscribers confirmed before this release keep the old rule's answer for the notices already written.
UPDATE status_subscribers
SET confirmed_after_notice = COALESCE(
    (SELECT MAX(n.seq) FROM status_notices n WHERE n.created_at < status_subscribers.confirmed_at), 0)
WHERE confirmed_at IS NOT NULL;
