//! Scores and leaderboards. A score exists only for a game the server has
//! replayed from its start, every computer move recomputed from the seed,
//! and found won by the player; the server counts the pieces and the time
//! itself.

use super::db::Db;
use super::error::{ServerError, ServerResult};
use super::games::GameRecord;
use crate::engine::bot::BOT_VERSION;
use crate::engine::{Color, Outcome, Preset, WinReason};
use crate::protocol::game::{ranked_variant, SCORE_BASE, SCORE_PER_PIECE};
use crate::protocol::{BoardKey, GameKind, ScoreView};

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
        GameKind::Free => {
            ranked_variant(&record.setup.rules).map(|variant| BoardKey::Free { level: record.level(), variant })
        }
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

/// Won games whose score is missing (the server stopped between the two
/// writes): their ids, for the start-up sweep. Only games of this
/// computer's version, whose stored outcome [`player_won`] for White (only
/// games as White are ranked; [`verify_win`] checks the rest).
pub async fn unscored_wins(db: &Db) -> ServerResult<Vec<String>> {
    Ok(db
        .finished_unscored()
        .await?
        .into_iter()
        .filter(|(_, outcome)| player_won(serde_json::from_str(outcome).ok(), Color::White))
        .map(|(id, _)| id)
        .collect())
}

/// The score of one game, with the player's rank on its board.
pub async fn score_of_game(db: &Db, game_id: &str) -> ServerResult<Option<ScoreView>> {
    let Some(stored) = db.score_of_game(game_id).await? else {
        return Ok(None);
    };
    let best = db.rank_of(&stored.board, &stored.player_id).await?;
    Ok(Some(ScoreView {
        score: stored.score,
        pieces: stored.pieces,
        seconds: stored.seconds,
        rank: best.as_ref().map(|b| b.rank),
        best: best.map(|b| b.score).unwrap_or(stored.score),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bot::Level;
    use crate::engine::Rules;
    use crate::protocol::GameSetup;

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
}
