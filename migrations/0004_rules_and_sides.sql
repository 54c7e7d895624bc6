-- A game's rules and the player's side are part of the game. Games stored
-- before were all played under the daily challenge's rules, the player
-- White. Two people on one device play a 'two_players' game and the
-- electronic board an 'electronic' one (whose player may switch sides and
-- play on past its endgame rule), which widens the kind's CHECK: SQLite cannot alter a CHECK, so the table is rebuilt
-- (the migration runner switches foreign keys off meanwhile and checks
-- them before committing: game_moves and scores find the same ids again).
CREATE TABLE games_rebuilt (
    id              TEXT PRIMARY KEY,           -- uuid v4
    player_id       TEXT NOT NULL REFERENCES players(id),
    kind            TEXT NOT NULL CHECK (kind IN ('daily', 'free', 'two_players', 'electronic')),
    day             TEXT NOT NULL,              -- UTC day the game started, YYYY-MM-DD
    level           TEXT NOT NULL,              -- debutant | intermediaire | fort | 1..8 (unused by two players)
    seed            INTEGER NOT NULL,           -- the bot's seed (u64 bits)
    start_fen       TEXT NOT NULL,
    ply_count       INTEGER NOT NULL DEFAULT 0, -- guards against two requests forking a game
    outcome         TEXT,                       -- NULL while playing; JSON of the engine's Outcome
    active_ms       INTEGER NOT NULL DEFAULT 0, -- the player's thinking time, clamped by the server
    last_answer_ms  INTEGER NOT NULL,           -- when the server last showed the board (unix ms)
    created_at      INTEGER NOT NULL,
    finished_at     INTEGER,
    bot_version     INTEGER NOT NULL DEFAULT 1,
    rules           TEXT NOT NULL DEFAULT 'international,repetition=0,move_limit=150', -- engine::Rules text form
    player_color    TEXT NOT NULL DEFAULT 'white' CHECK (player_color IN ('white', 'black')),
    played_on       INTEGER NOT NULL DEFAULT 0, -- played on past the electronic board's endgame draw
    revision        INTEGER NOT NULL DEFAULT 0  -- bumped by every write: a take-back lowers ply_count, so
                                                -- a write made from an older read checks this too
);

INSERT INTO games_rebuilt (id, player_id, kind, day, level, seed, start_fen, ply_count, outcome, active_ms,
                           last_answer_ms, created_at, finished_at, bot_version)
SELECT id, player_id, kind, day, level, seed, start_fen, ply_count, outcome, active_ms,
       last_answer_ms, created_at, finished_at, bot_version
FROM games;

DROP TABLE games;
ALTER TABLE games_rebuilt RENAME TO games;

CREATE INDEX games_by_player ON games (player_id, kind, day, outcome);
CREATE INDEX games_finished ON games (finished_at) WHERE outcome IS NOT NULL;
