-- The whole schema of the SQLite migrations (migrations/0001 to 0004), as
-- PostgreSQL starts it: a new deployment has no history to migrate. Later
-- changes go in new files here and in migrations/, side by side.

-- Players are anonymous: a random id kept in a cookie, and a pseudonym once
-- they have a score to show.
CREATE TABLE players (
    id            TEXT PRIMARY KEY,             -- uuid v4
    pseudonym     TEXT,                         -- as typed, trimmed
    pseudonym_key TEXT UNIQUE,                  -- lower-cased: unique regardless of case
    created_at    BIGINT NOT NULL               -- unix milliseconds
);

-- A game: against the computer, two players on one device, or the
-- electronic board.
CREATE TABLE games (
    seq             BIGINT GENERATED ALWAYS AS IDENTITY, -- insertion order (SQLite's rowid)
    id              TEXT PRIMARY KEY,           -- uuid v4
    player_id       TEXT NOT NULL REFERENCES players(id),
    kind            TEXT NOT NULL CHECK (kind IN ('daily', 'free', 'two_players', 'electronic')),
    day             TEXT NOT NULL,              -- UTC day the game started, YYYY-MM-DD
    level           TEXT NOT NULL,              -- debutant | intermediaire | fort | 1..8
    seed            BIGINT NOT NULL,            -- the bot's seed (u64 bits)
    start_fen       TEXT NOT NULL,
    ply_count       BIGINT NOT NULL DEFAULT 0,  -- with revision, guards against two requests forking a game
    outcome         TEXT,                       -- NULL while playing; JSON of the engine's Outcome
    active_ms       BIGINT NOT NULL DEFAULT 0,  -- the player's thinking time, clamped by the server
    last_answer_ms  BIGINT NOT NULL,            -- when the server last showed the board (unix ms)
    created_at      BIGINT NOT NULL,
    finished_at     BIGINT,
    bot_version     BIGINT NOT NULL,            -- engine::bot::BOT_VERSION the game is played against
    rules           TEXT NOT NULL,              -- engine::Rules text form
    player_color    TEXT NOT NULL CHECK (player_color IN ('white', 'black')),
    played_on       BOOLEAN NOT NULL DEFAULT FALSE, -- played on past the electronic board's endgame draw
    revision        BIGINT NOT NULL DEFAULT 0   -- bumped by every write
);
CREATE INDEX games_by_player ON games (player_id, kind, day, created_at DESC, seq DESC);
CREATE INDEX games_finished ON games (finished_at) WHERE outcome IS NOT NULL;

-- Every ply of every game, player's and computer's.
CREATE TABLE game_moves (
    game_id   TEXT NOT NULL REFERENCES games(id),
    ply       BIGINT NOT NULL,                  -- 0-based
    move      TEXT NOT NULL,                    -- long form: 32-28, 28x19{23}
    think_ms  BIGINT,                           -- clamped thinking time of a player's move
    PRIMARY KEY (game_id, ply)
);

-- Scores of won games, computed by the server from its own replay.
CREATE TABLE scores (
    game_id     TEXT PRIMARY KEY REFERENCES games(id),  -- a game scores once
    player_id   TEXT NOT NULL REFERENCES players(id),
    board       TEXT NOT NULL,                          -- jour:YYYY-MM-DD, libre:<level>, libre:<variant>:<level>
    score       BIGINT NOT NULL,
    pieces      BIGINT NOT NULL,
    seconds     BIGINT NOT NULL,
    recorded_at BIGINT NOT NULL
);

-- The best score of each player on each board: what the leaderboards rank.
CREATE TABLE best_scores (
    board       TEXT NOT NULL,
    player_id   TEXT NOT NULL REFERENCES players(id),
    game_id     TEXT NOT NULL REFERENCES games(id),
    score       BIGINT NOT NULL,
    pieces      BIGINT NOT NULL,
    seconds     BIGINT NOT NULL,
    recorded_at BIGINT NOT NULL,
    PRIMARY KEY (board, player_id)
);
CREATE INDEX best_scores_rank ON best_scores (board, score DESC, recorded_at ASC);
