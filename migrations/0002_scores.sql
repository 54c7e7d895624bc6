-- Scores of won games, computed by the server from its own replay.
-- `board` names the leaderboard: 'jour:YYYY-MM-DD' for a daily challenge,
-- 'libre:<level>' for free games.
CREATE TABLE scores (
    game_id     TEXT PRIMARY KEY REFERENCES games(id),  -- a game scores once
    player_id   TEXT NOT NULL REFERENCES players(id),
    board       TEXT NOT NULL,
    score       INTEGER NOT NULL,
    pieces      INTEGER NOT NULL,
    seconds     INTEGER NOT NULL,
    recorded_at INTEGER NOT NULL                        -- unix ms
);

-- The best score of each player on each board: what the leaderboards
-- rank. Kept up to date with `scores` in the same transaction.
CREATE TABLE best_scores (
    board       TEXT NOT NULL,
    player_id   TEXT NOT NULL REFERENCES players(id),
    game_id     TEXT NOT NULL REFERENCES games(id),
    score       INTEGER NOT NULL,
    pieces      INTEGER NOT NULL,
    seconds     INTEGER NOT NULL,
    recorded_at INTEGER NOT NULL,
    PRIMARY KEY (board, player_id)
) WITHOUT ROWID;

-- Ranking order: higher score first, then the older score.
CREATE INDEX best_scores_rank ON best_scores (board, score DESC, recorded_at ASC);
-- Finding won games still waiting for their score (after a crash).
CREATE INDEX games_finished ON games (finished_at) WHERE outcome IS NOT NULL;
