-- Deferred memory formation (`dreaming: dynamic`): a processed memory
-- document keeps its job row, now in stage 'dream', until its memories are
-- formed; a re-sent document's job goes back to 'process'.
ALTER TABLE jobs ADD COLUMN stage TEXT NOT NULL DEFAULT 'process';
