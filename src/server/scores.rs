//! Scores and leaderboards. A score exists only for a game the server has
//! replayed from its start, every computer move recomputed from the seed,
//! and found won by the player; the server counts the pieces and the time
//! itself.

use super::error::{ServerError, ServerResult};
use super::games::GameRecord;
use crate::engine::bot::BOT_VERSION;
use crate::engine::{Color, Outcome, Preset, WinReason};
use crate::protocol::game::{ranked_variant, SCORE_BASE, SCORE_PER_PIECE};
use crate::protocol::{BoardKey, GameKind, ScoreLine, ScoreView};
use rusqlite::{params, Connection, OptionalExtension};

/// Rows shown on a leaderboard.
pub const TOP: usize = 100;

/// 3000 + 300 per piece left − 1 per second of play, never below zero.
/// Only the server computes a score that counts.
pub fn score(pieces: u32, seconds: u64) -> u64 {
    (SCORE_BASE + SCORE_PER_PIECE * pieces as u64).saturating_sub(seconds)
}

/// How a board is named in the database: `jour:YYYY-MM-DD` for a day's
/// challenge, `libre:<level>` for free international games at a level (the
/// name they had before variants existed), `libre:<variant>:<level>` for
/// the other variants.
pub fn board_key(board: &BoardKey) -> String {
    match board {
        BoardKey::Daily { day } => format!("jour:{day}"),
        BoardKey::Free { level, variant: Preset::International } => format!("libre:{}", level.name()),
        BoardKey::Free { level, variant } => format!("libre:{}:{}", variant.name(), level.name()),
    }
}

/// The leaderboard a game belongs to, if it is ranked (see
/// [`GameSetup::is_ranked`](crate::protocol::GameSetup::is_ranked)).
pub fn board_of(record: &GameRecord) -> Option<BoardKey> {
    if !record.setup.is_ranked(record.kind) {
        return None;
    }
    match record.kind {
        GameKind::Daily => Some(BoardKey::Daily { day: record.day.clone() }),
        GameKind::Free => ranked_variant(&record.setup.parsed_rules())
            .map(|variant| BoardKey::Free { level: record.level(), variant }),
        GameKind::TwoPlayers | GameKind::Electronic => None,
    }
}

/// What the server recomputed for a won game, ready to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedWin {
    pub game_id: String,
    pub player_id: String,
    pub board: String,
    pub score: u64,
    pub pieces: u32,
    pub seconds: u64,
}

/// Whether an outcome is a win that scores for `player`: won over the
/// board. A win by resignation is not one (the computer never resigns, so
/// only a forged record could claim it).
pub fn player_won(outcome: Option<Outcome>, player: Color) -> bool {
    matches!(outcome, Some(Outcome::Win { winner, reason }) if winner == player && reason != WinReason::Resignation)
}

/// Whether `record` may earn a score, as it says: a ranked game the player
/// won, against this version of the computer (the only one that can
/// recompute its moves). [`verify_win`] then checks it.
pub fn may_score(record: &GameRecord) -> bool {
    player_won(record.outcome, record.setup.player) && record.bot_version == BOT_VERSION && board_of(record).is_some()
}

/// Replays `record` with every computer move recomputed on up to
/// `threads` threads. `Ok(None)` when the game may not score.
pub fn verify_win(record: &GameRecord, threads: usize) -> ServerResult<Option<VerifiedWin>> {
    let (true, Some(board)) = (may_score(record), board_of(record)) else {
        return Ok(None);
    };
    let game = record.replay_verified(threads)?;
    if game.outcome() != record.outcome {
        return Err(ServerError::CorruptGame {
            game: record.id.clone(),
            why: format!("stored outcome {:?}, replayed {:?}", record.outcome, game.outcome()),
        });
    }
    let pieces = game.position().count(record.setup.player);
    let seconds = record.active_ms / 1000;
    Ok(Some(VerifiedWin {
        game_id: record.id.clone(),
        player_id: record.player_id.clone(),
        board: board_key(&board),
        score: score(pieces, seconds),
        pieces,
        seconds,
    }))
}

/// Stores a verified win: once per game (a second call changes nothing),
/// and as the player's best on its board if it beats the one there (an
/// equal score keeps the older).
pub fn record(conn: &mut Connection, win: &VerifiedWin, now_ms: i64) -> ServerResult<()> {
    let tx = conn.transaction()?;
    let inserted = tx.execute(
        "INSERT OR IGNORE INTO scores (game_id, player_id, board, score, pieces, seconds, recorded_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![win.game_id, win.player_id, win.board, win.score as i64, win.pieces, win.seconds as i64, now_ms],
    )?;
    if inserted == 1 {
        tx.execute(
            "INSERT INTO best_scores (board, player_id, game_id, score, pieces, seconds, recorded_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (board, player_id) DO UPDATE SET
                game_id = excluded.game_id, score = excluded.score, pieces = excluded.pieces,
                seconds = excluded.seconds, recorded_at = excluded.recorded_at
             WHERE excluded.score > best_scores.score",
            params![win.board, win.player_id, win.game_id, win.score as i64, win.pieces, win.seconds as i64, now_ms],
        )?;
    }
    Ok(tx.commit()?)
}

/// Won games whose score is missing (the server stopped between the two
/// writes): their ids, for the start-up sweep. Only games of this
/// computer's version, whose stored outcome [`player_won`] for White (only
/// games as White are ranked; [`verify_win`] checks the rest).
pub fn unscored_wins(conn: &Connection) -> ServerResult<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT g.id, g.outcome FROM games g LEFT JOIN scores s ON s.game_id = g.id
             WHERE g.outcome IS NOT NULL AND g.bot_version = ?1 AND s.game_id IS NULL",
    )?;
    let rows = stmt
        .query_map([BOT_VERSION], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows
        .into_iter()
        .filter(|(_, outcome)| player_won(serde_json::from_str(outcome).ok(), Color::White))
        .map(|(id, _)| id)
        .collect())
}

/// The score of one game, with the player's rank on its board.
pub fn score_of_game(conn: &Connection, game_id: &str) -> ServerResult<Option<ScoreView>> {
    let row = conn
        .query_row("SELECT board, player_id, score, pieces, seconds FROM scores WHERE game_id = ?1", [game_id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, u32>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })
        .optional()?;
    let Some((board, player, score, pieces, seconds)) = row else {
        return Ok(None);
    };
    let best = rank_of(conn, &board, &player)?;
    Ok(Some(ScoreView {
        score: score as u64,
        pieces,
        seconds: seconds as u64,
        rank: best.as_ref().map(|b| b.rank),
        best: best.map(|b| b.score).unwrap_or(score as u64),
    }))
}

/// The top of a board, best first; equal scores: the older first.
pub fn leaderboard(conn: &Connection, board: &str, limit: usize) -> ServerResult<Vec<ScoreLine>> {
    let mut stmt = conn.prepare_cached(
        "SELECT b.player_id, p.pseudonym, b.game_id, b.score, b.pieces, b.seconds
             FROM best_scores b JOIN players p ON p.id = b.player_id
             WHERE b.board = ?1 ORDER BY b.score DESC, b.recorded_at ASC LIMIT ?2",
    )?;
    let rows = stmt
        .query_map(params![board, limit as i64], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, u32>(4)?,
                r.get::<_, i64>(5)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows
        .into_iter()
        .enumerate()
        .map(|(i, (player, pseudonym, game_id, score, pieces, seconds))| ScoreLine {
            rank: i as u64 + 1,
            player_id: player,
            pseudonym,
            game_id,
            score: score as u64,
            pieces,
            seconds: seconds as u64,
        })
        .collect())
}

/// A player's best row on a board, with its rank.
pub fn rank_of(conn: &Connection, board: &str, player_id: &str) -> ServerResult<Option<ScoreLine>> {
    let row = conn
        .query_row(
            "SELECT b.game_id, b.score, b.pieces, b.seconds, b.recorded_at, p.pseudonym
             FROM best_scores b JOIN players p ON p.id = b.player_id
             WHERE b.board = ?1 AND b.player_id = ?2",
            params![board, player_id],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, u32>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, Option<String>>(5)?,
                ))
            },
        )
        .optional()?;
    let Some((game_id, score, pieces, seconds, recorded_at, pseudonym)) = row else {
        return Ok(None);
    };
    let ahead: i64 = conn.query_row(
        "SELECT count(*) FROM best_scores
             WHERE board = ?1 AND (score > ?2 OR (score = ?2 AND recorded_at < ?3))",
        params![board, score, recorded_at],
        |r| r.get(0),
    )?;
    Ok(Some(ScoreLine {
        rank: ahead as u64 + 1,
        player_id: player_id.to_string(),
        pseudonym,
        game_id,
        score: score as u64,
        pieces,
        seconds: seconds as u64,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bot::Level;
    use crate::engine::Rules;
    use crate::protocol::GameSetup;
    use crate::server::db::Db;

    fn verify_win_on_two(record: &GameRecord) -> ServerResult<Option<VerifiedWin>> {
        verify_win(record, 2)
    }

    fn record_of(fen: &str, moves: &[&str], outcome: Option<Outcome>) -> GameRecord {
        GameRecord {
            id: "g".into(),
            player_id: "p".into(),
            kind: GameKind::Daily,
            day: "2026-11-29".into(),
            setup: GameSetup::daily(),
            seed: 5,
            bot_version: BOT_VERSION,
            start_fen: fen.into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            outcome,
            active_ms: 61_500,
            last_answer_ms: 0,
            created_at: 0,
            played_on: false,
            revision: 0,
        }
    }

    #[test]
    fn only_a_verified_win_scores() {
        let white_wins = Some(Outcome::Win { winner: Color::White, reason: WinReason::NoPieces });
        let won = record_of("W:WK47,40:B9,12,33", &["47x26{9,12,33}"], white_wins);
        let win = verify_win_on_two(&won).unwrap().unwrap();
        assert_eq!((win.pieces, win.seconds, win.score), (2, 61, 3000 + 600 - 61));
        assert_eq!(win.board, "jour:2026-11-29");

        // Lost, drawn, resigned, unfinished: no score.
        let black_wins = Some(Outcome::Win { winner: Color::Black, reason: WinReason::NoPieces });
        assert_eq!(verify_win_on_two(&record_of("W:WK47,40:B9,12,33", &[], black_wins)).unwrap(), None);
        let draw = Some(Outcome::Draw(crate::engine::DrawReason::KingMoves));
        assert_eq!(verify_win_on_two(&record_of("W:WK47,40:B9,12,33", &[], draw)).unwrap(), None);
        let resigned = Some(Outcome::Win { winner: Color::White, reason: WinReason::Resignation });
        assert_eq!(verify_win_on_two(&record_of("W:WK47,40:B9,12,33", &[], resigned)).unwrap(), None);
        assert_eq!(verify_win_on_two(&record_of("W:W31-50:B1-20", &[], None)).unwrap(), None);

        // A claimed win the moves do not give, or a computer move the bot
        // would not play: refused.
        assert!(verify_win_on_two(&record_of("W:WK47,40:B9,12,33", &[], white_wins)).is_err());
        let forged = record_of("W:W31-50:B1-20", &["32-28", "19-23", "28x19{23}", "14x23{19}"], white_wins);
        assert!(verify_win_on_two(&forged).is_err());

        // Won against an earlier computer, which alone could recompute its
        // moves: not scored, and no error either.
        let old = GameRecord { bot_version: BOT_VERSION - 1, ..won.clone() };
        assert_eq!(verify_win_on_two(&old).unwrap(), None);
    }

    #[test]
    fn free_games_score_on_their_variants_board_and_unranked_ones_do_not() {
        let white_wins = Some(Outcome::Win { winner: Color::White, reason: WinReason::NoPieces });
        let free = |rules: Rules, player: Color| GameRecord {
            kind: GameKind::Free,
            setup: GameSetup::new(rules, Level::Debutant, player),
            ..record_of("W:WK47,40:B9,12,33", &["47x26{9,12,33}"], white_wins)
        };
        let international = verify_win_on_two(&free(Rules::INTERNATIONAL, Color::White)).unwrap().unwrap();
        assert_eq!(international.board, "libre:debutant", "the board free games always had");
        let daily_rules = verify_win_on_two(&free(Rules::DAILY, Color::White)).unwrap().unwrap();
        assert_eq!(daily_rules.board, "libre:debutant");
        assert_eq!(verify_win_on_two(&free(Rules::INTERNATIONAL, Color::Black)).unwrap(), None, "as Black");
        let custom = Rules { flying: false, ..Rules::INTERNATIONAL };
        assert_eq!(verify_win_on_two(&free(custom, Color::White)).unwrap(), None, "custom rules");
        let english = GameRecord {
            kind: GameKind::Free,
            setup: GameSetup::new(Rules::ENGLISH, Level::Fort, Color::White),
            ..record_of("W:W21,22:B17", &["22x13{17}"], white_wins)
        };
        assert_eq!(verify_win_on_two(&english).unwrap().unwrap().board, "libre:english:fort");
        assert_eq!(board_key(&BoardKey::Free { level: Level::Fort, variant: Preset::Russian }), "libre:russian:fort");
    }

    #[test]
    fn the_sweep_looks_only_at_unscored_wins_against_this_computer() {
        let db = Db::open_in_memory().unwrap();
        let white_wins =
            serde_json::to_string(&Outcome::Win { winner: Color::White, reason: WinReason::NoPieces }).unwrap();
        let black_wins =
            serde_json::to_string(&Outcome::Win { winner: Color::Black, reason: WinReason::NoPieces }).unwrap();
        let ids = db.run_blocking(|c| {
            c.execute("INSERT INTO players (id, created_at) VALUES ('p', 0)", []).unwrap();
            for (id, outcome, version) in
                [("now", &white_wins, BOT_VERSION), ("before", &white_wins, BOT_VERSION - 1), ("lost", &black_wins, BOT_VERSION)]
            {
                c.execute(
                    "INSERT INTO games (id, player_id, kind, day, level, seed, start_fen, outcome, last_answer_ms, created_at, bot_version)
                     VALUES (?1, 'p', 'daily', '2026-11-29', 'intermediaire', 0, 'W:W31-50:B1-20', ?2, 0, 0, ?3)",
                    params![id, outcome, version],
                )
                .unwrap();
            }
            unscored_wins(c)
        });
        assert_eq!(ids.unwrap(), vec!["now".to_string()]);
    }

    fn add(conn: &mut Connection, game: &str, player: &str, board: &str, score: u64, at: i64) {
        conn.execute("INSERT OR IGNORE INTO players (id, created_at) VALUES (?1, 0)", [player]).unwrap();
        conn.execute(
            "INSERT OR IGNORE INTO games (id, player_id, kind, day, level, seed, start_fen, last_answer_ms, created_at)
             VALUES (?1, ?2, 'daily', '2026-11-29', 'intermediaire', 0, 'W:W31-50:B1-20', 0, 0)",
            params![game, player],
        )
        .unwrap();
        let win = VerifiedWin {
            game_id: game.into(),
            player_id: player.into(),
            board: board.into(),
            score,
            pieces: 5,
            seconds: 100,
        };
        record(conn, &win, at).unwrap();
    }

    #[test]
    fn best_per_player_ties_to_the_older_and_a_game_scores_once() {
        let db = Db::open_in_memory().unwrap();
        db.run_blocking(|c| {
            let board = "jour:2026-11-29";
            add(c, "g1", "alice", board, 4000, 10);
            add(c, "g2", "bob", board, 4500, 20);
            add(c, "g3", "carol", board, 4000, 5);
            add(c, "g4", "alice", board, 3000, 30); // worse: alice keeps 4000
            add(c, "g1", "alice", board, 9000, 40); // same game again: ignored
            add(c, "g5", "dave", "jour:2026-11-28", 9000, 1); // another day
            let top = leaderboard(c, board, 10).unwrap();
            let order: Vec<(&str, u64)> = top.iter().map(|l| (l.player_id.as_str(), l.score)).collect();
            assert_eq!(order, vec![("bob", 4500), ("carol", 4000), ("alice", 4000)]);
            assert_eq!(rank_of(c, board, "alice").unwrap().unwrap().rank, 3);
            assert_eq!(rank_of(c, board, "dave").unwrap(), None);
            add(c, "g6", "alice", board, 4600, 50); // better: alice is first
            assert_eq!(rank_of(c, board, "alice").unwrap().unwrap().rank, 1);
            assert_eq!(leaderboard(c, board, 10).unwrap().len(), 3);
            let n: i64 = c.query_row("SELECT count(*) FROM scores WHERE game_id = 'g1'", [], |r| r.get(0)).unwrap();
            assert_eq!(n, 1);
        });
    }
}
