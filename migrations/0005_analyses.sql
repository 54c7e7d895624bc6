-- A finished game's analysis by the engine, one per game and version of
-- the analysis (its budget, thresholds and the search it runs). The row is
-- claimed by the run that searches it, so that two requests, on one
-- server or on several over PostgreSQL, search a game once; the run writes
-- its progress as it goes (other servers show it), then the result. A run
-- silent for long (its server stopped) may be claimed again.
CREATE TABLE analyses (
    game_id     TEXT NOT NULL REFERENCES games(id),
    version     TEXT NOT NULL,              -- analysis version, bot version, node budget: "1-5-500000"
    done        INTEGER NOT NULL DEFAULT 0, -- positions searched
    total       INTEGER NOT NULL,           -- positions to search: plies + 1
    result      TEXT,                       -- JSON of the engine's Analysis; NULL while it runs
    run_id      TEXT NOT NULL,              -- the run that holds the claim: only it writes
    updated_at  INTEGER NOT NULL,           -- unix ms of the run's last word
    PRIMARY KEY (game_id, version)
);
