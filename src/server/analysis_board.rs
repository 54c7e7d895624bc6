//! The analysis board's server side: a position judged by the engine on
//! request, and games read from PDN text. Nothing is stored: the board's
//! position and line live in the page.

use super::analyses::AnalysisBudget;
use super::api::RequestContext;
use super::error::{ServerError, ServerResult};
use crate::engine::analysis::{AnalysisJob, PositionSearch};
use crate::engine::any::{AnyGame, AnyPosition};
use crate::engine::geometry::{Eight, Geometry, Ten, Twelve};
use crate::engine::pdn::{parse_pdn, replay_with, PdnGame, ReplayError};
use crate::engine::{GameError, Rules};
use crate::protocol::error::{fen_error_fr, move_text_error_fr, rules_error_fr};
use crate::protocol::{AppError, ImportedGame};

/// The largest PDN text read: a tournament's whole file is a few hundred
/// kilobytes.
pub const MAX_PDN_BYTES: usize = 1024 * 1024;
/// A FEN or a rule set is a line.
const MAX_LINE_BYTES: usize = 4 * 1024;

/// The engine's look at a position given by its rules and FEN, at the
/// server's analysis budget, in a search slot. Counted as a move against
/// the player's and the address's limits: it costs the server what a
/// computer's reply does.
pub async fn evaluate(ctx: &RequestContext, rules: String, fen: String) -> ServerResult<PositionSearch> {
    ctx.limits.check_move(&ctx.player, ctx.address)?;
    let position = read_position(&rules, &fen)?;
    let budget = AnalysisBudget::current().0;
    let job = AnalysisJob::new(AnyGame::new(position), budget);
    let _slot = ctx.limits.searches.acquire().await.map_err(|_| ServerError::SearchSlotsClosed)?;
    let search = tokio::task::spawn_blocking(move || job.search(0)).await?;
    search.map_err(|e| ServerError::Unreadable(format!("analysis: {e}")))
}

/// A position from the page: rules in their text form and a FEN, checked.
fn read_position(rules: &str, fen: &str) -> Result<AnyPosition, AppError> {
    if rules.len() > MAX_LINE_BYTES || fen.len() > MAX_LINE_BYTES {
        return Err(AppError::TooLarge { limit_bytes: MAX_LINE_BYTES as u64 });
    }
    let rules = Rules::parse(rules.trim()).map_err(|e| AppError::BadRequest(rules_error_fr(&e)))?;
    AnyPosition::from_fen(fen.trim(), rules).map_err(|e| AppError::BadText(format!("FEN : {}", fen_error_fr(&e))))
}

/// Game `index` (from 0) of a PDN text, replayed through the rules its
/// tags name (international when none) as records are (without the
/// repetition draw, which players do not always claim: the record says how
/// the game ended), and a line for each game of the text. Checked by the player's and the address's limits on moves.
pub async fn import_pdn(ctx: &RequestContext, text: String, index: usize) -> ServerResult<ImportedGame> {
    ctx.limits.check_move(&ctx.player, ctx.address)?;
    Ok(read_pdn(&text, index)?)
}

/// See [`import_pdn`]: the reading itself.
pub fn read_pdn(text: &str, index: usize) -> Result<ImportedGame, AppError> {
    if text.len() > MAX_PDN_BYTES {
        return Err(AppError::TooLarge { limit_bytes: MAX_PDN_BYTES as u64 });
    }
    let games = parse_pdn(text);
    if games.is_empty() {
        return Err(AppError::BadText("aucune partie dans ce texte PDN.".into()));
    }
    let Some(pdn) = games.get(index) else {
        return Err(AppError::BadRequest(format!("partie {} demandée, le texte en compte {}", index + 1, games.len())));
    };
    let refused = |why: String| AppError::BadText(format!("partie {} : {why}", index + 1));
    let rules = pdn.rules(Rules::INTERNATIONAL).map_err(|e| refused(format!("règles inconnues ({e})")))?;
    let game = match rules.size {
        8 => AnyGame::Eight(replay_fr::<Eight>(pdn, rules).map_err(refused)?),
        12 => AnyGame::Twelve(replay_fr::<Twelve>(pdn, rules).map_err(refused)?),
        _ => AnyGame::Ten(replay_fr::<Ten>(pdn, rules).map_err(refused)?),
    };
    Ok(ImportedGame {
        rules: game.rules(),
        start_fen: game.start().to_fen(),
        moves: game.played().into_iter().map(|(_, m)| m.long).collect(),
        result: pdn.result.clone(),
        index,
        games: games.iter().enumerate().map(|(i, g)| game_line(i, g)).collect(),
    })
}

/// Replays `pdn` on the board of `G`, a refusal in French naming the move,
/// its number, its line and its column.
fn replay_fr<G: Geometry>(pdn: &PdnGame, rules: Rules) -> Result<crate::engine::Game<G>, String> {
    replay_with::<G>(pdn, rules).map_err(|e| match e {
        ReplayError::BadRules(why) => format!("règles inconnues ({why})"),
        ReplayError::BadStart(e) => format!("position de départ (FEN) : {}", fen_error_fr(&e)),
        ReplayError::Move { ply, text, error } => {
            let at =
                pdn.spots.get(ply).map(|s| format!(", ligne {}, colonne {}", s.line, s.column)).unwrap_or_default();
            let why = match error {
                GameError::Finished(_) => "la partie était déjà finie".to_string(),
                GameError::Illegal(_) => "coup illégal dans cette position".to_string(),
                GameError::Text(e) => move_text_error_fr(&e),
            };
            format!("coup {} « {text} »{at} : {why}", ply + 1)
        }
    })
}

/// A game of a PDN file in a line: `3. Sijbrands – Baba Sy, Amsterdam 1963 (84 coups)`.
fn game_line(index: usize, pdn: &PdnGame) -> String {
    let tag = |name| pdn.tag(name).filter(|v| !v.is_empty() && *v != "?");
    let players = match (tag("White"), tag("Black")) {
        (Some(w), Some(b)) => format!("{w} – {b}"),
        _ => "Partie".to_string(),
    };
    let place: Vec<&str> = [tag("Event"), tag("Date")].into_iter().flatten().collect();
    let place = if place.is_empty() { String::new() } else { format!(", {}", place.join(" ")) };
    format!("{}. {players}{place} ({} coups)", index + 1, pdn.moves.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pdn_game_reads_with_its_rules_and_a_refusal_names_the_move_and_where() {
        let text = "[White \"A\"]\n[Black \"B\"]\n[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 *\n\n\
                    [White \"C\"]\n[GameType \"21\"]\n1. 11-15 23-18\n2. 15-24 22-17 *\n";
        let first = read_pdn(text, 0).unwrap();
        // As records are replayed: without the repetition draw, which
        // players do not always claim.
        let english = Rules { repetition: false, ..Rules::parse("english").unwrap() };
        assert_eq!((first.rules, first.moves.len(), first.index), (english, 3, 0));
        assert_eq!(first.games, vec!["1. A – B (3 coups)", "2. Partie (4 coups)"]);
        let second = read_pdn(text, 1);
        let Err(AppError::BadText(why)) = second else { panic!("{second:?}") };
        assert!(why.starts_with("partie 2 : coup 3 « 15-24 », ligne 9, colonne 4 : "), "{why}");
        assert!(matches!(read_pdn(text, 2), Err(AppError::BadRequest(_))));
        assert!(matches!(read_pdn("{ rien }", 0), Err(AppError::BadText(_))));
        let huge = "1. 32-28 ".repeat(MAX_PDN_BYTES / 9 + 1);
        assert_eq!(read_pdn(&huge, 0), Err(AppError::TooLarge { limit_bytes: MAX_PDN_BYTES as u64 }));
    }

    #[test]
    fn a_position_reads_in_every_board_size_or_says_which_field_is_wrong() {
        for (rules, fen) in [
            ("english", "B:W21-32:B1-12"),
            ("russian", "W:W18,K30:BK1,5"),
            ("international", "W:W31-50:B1-20"),
            ("international", "B:WK3,28,33:B9,K46"),
            ("international,size=12,rows=5", "W:W43-72:B1-30"),
            ("international,size=12,rows=5", "W:W40,K71:B2,K33"),
        ] {
            let position = read_position(rules, fen).unwrap_or_else(|e| panic!("{rules} {fen}: {e}"));
            assert_eq!(position.to_fen(), fen, "the FEN round trip");
        }
        assert!(matches!(read_position("english", "W:W31-50:B1-20"), Err(AppError::BadText(_))));
        assert!(matches!(read_position("nimporte", "W:W31-50:B1-20"), Err(AppError::BadRequest(_))));
    }
}
