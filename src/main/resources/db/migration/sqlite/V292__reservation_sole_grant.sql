-- Most holds are paid by one grant. Such a reservation names it in its own row (grant_id), as a spending
-- does since V160, instead of a spending_grants row that the hold writes and its end updates again; what it
-- returned to that grant follows from its status: nothing while held, all of it once ended (a settle moves
-- what it spends into its spending's own draw). spending_grants keeps the holds several grants paid.
ALTER TABLE reservations ADD COLUMN grant_id TEXT;
