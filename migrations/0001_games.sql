-- Players are anonymous: a random id kept in a cookie, and a pseudonym once
-- they have a score to show.
CREATE TABLE players (
    id            TEXT PRIMARY KEY,             -- uuid v4
    pseudonym     TEXT,                         -- as typed, trimmed
    pseudonym_key TEXT UNIQUE,                  -- lower-cased, for uniqueness regardless of case
    created_at    INTEGER NOT NULL              -- unix milliseconds
);

-- One game against the computer. The player is always White.
CREATE TABLE games (
    id              TEXT PRIMARY KEY,           -- uuid v4
    player_id       TEXT NOT NULL REFERENCES players(id),
    kind            TEXT NOT NULL CHECK (kind IN ('daily', 'free')),
    day             TEXT NOT NULL,              -- UTC day the game started, YYYY-MM-DD
    level           TEXT NOT NULL,              -- debutant | intermediaire | fort
    seed            INTEGER NOT NULL,           -- the bot's seed (u64 bits)
    start_fen       TEXT NOT NULL,
    ply_count       INTEGER NOT NULL DEFAULT 0, -- guards against two requests forking a game
    outcome         TEXT,                       -- NULL while playing; JSON of the engine's Outcome
    active_ms       INTEGER NOT NULL DEFAULT 0, -- the player's thinking time, clamped by the server
    last_answer_ms  INTEGER NOT NULL,           -- when the server last showed the board (unix ms)
    created_at      INTEGER NOT NULL,
    finished_at     INTEGER
);
CREATE INDEX games_by_player ON games (player_id, kind, day, outcome);

-- Every ply of every game, player's and computer's.
CREATE TABLE game_moves (
    game_id   TEXT NOT NULL REFERENCES games(id),
    ply       INTEGER NOT NULL,                 -- 0-based
    move      TEXT NOT NULL,                    -- long form: 32-28, 28x19{23}
    think_ms  INTEGER,                          -- clamped thinking time of a player's move
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
