-- The version of the computer a game was played against (engine::bot::
-- BOT_VERSION). Its moves can only be re-verified by that same computer:
-- games of another version are never resumed and never scored. Games stored
-- before this column existed were played against version 1.
ALTER TABLE games ADD COLUMN bot_version INTEGER NOT NULL DEFAULT 1;
