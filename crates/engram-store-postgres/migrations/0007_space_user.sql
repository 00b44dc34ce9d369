-- The name of the person a space is about, learned from what they said
-- ("I'm Maya") or from a document's metadata, so later documents in the
-- space name them instead of "the user".
ALTER TABLE container_tags ADD COLUMN user_name TEXT;
