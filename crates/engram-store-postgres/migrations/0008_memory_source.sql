-- What a memory was formed from: the stating turn with the turns around
-- it, which keyword search reads as the memory's context.
ALTER TABLE memories ADD COLUMN source_text TEXT;
