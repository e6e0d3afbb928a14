-- Reservations are written only by a ledger round that holds their account's row lock, and accounts are
-- never deleted, so the foreign key to accounts checked nothing the lock had not already made true (as
-- V170 found for spendings and ledger lines). Its trigger locked the account row again for every held
-- reservation, a row the same round had just updated: measured at ~0.1 ms a reservation under auto_explain
-- on one busy account (docs/PERFORMANCE.md, session 20). verify still finds a reservation whose account is
-- missing.
ALTER TABLE reservations DROP CONSTRAINT reservations_account_id_fkey;
