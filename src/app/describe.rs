//! How a game is described to the player, the same way on every page: its
//! French title, its moves in notation, its PDN file, and the last move the
//! board keeps highlighted.

use crate::engine::bot::Level;
use crate::engine::pdn::{move_texts, write_pdn};
use crate::engine::{Color, Game, Move, Outcome, Position, Square};
use crate::protocol::{GameKind, GameView};

/// A game's name: "Défi du 29 novembre 2026", "Partie libre, niveau Fort".
pub fn game_title(kind: GameKind, day: &str, level: Level) -> String {
    match kind {
        GameKind::Daily => format!("Défi du {}", french_date(day)),
        GameKind::Free => format!("Partie libre, niveau {}", level.label()),
    }
}

/// `2026-11-29` as a French reader writes it: "29 novembre 2026" (and
/// "1er" for the first of the month). Any other text is shown as it is.
pub fn french_date(day: &str) -> String {
    const MONTHS: [&str; 12] = [
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ];
    let mut parts = day.splitn(3, '-');
    let (Some(year), Some(month), Some(date)) = (parts.next(), parts.next(), parts.next()) else {
        return day.to_string();
    };
    let (Ok(month), Ok(date)) = (month.parse::<usize>(), date.parse::<u32>()) else {
        return day.to_string();
    };
    match MONTHS.get(month.wrapping_sub(1)) {
        Some(name) if date == 1 => format!("1er {name} {year}"),
        Some(name) => format!("{date} {name} {year}"),
        None => day.to_string(),
    }
}

/// The title of a game view.
pub fn view_title(view: &GameView) -> String {
    game_title(view.kind, &view.day, view.level)
}

/// A move as the board shows it: where it started, every landing square,
/// and where the captured pieces stood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownMove {
    pub from: Square,
    pub path: Vec<Square>,
    pub captured: Vec<Square>,
    pub text: String,
}

impl ShownMove {
    pub fn new(before: &Position, mv: &Move) -> ShownMove {
        let path = before.capture_paths(mv).into_iter().next().unwrap_or_else(|| vec![mv.to]);
        ShownMove {
            from: mv.from,
            path,
            captured: mv.captured.squares().collect(),
            text: crate::engine::move_to_text(before, mv),
        }
    }
}

/// The last move Black (the computer) played, if the last ply was its.
pub fn last_computer_move(game: &Game) -> Option<ShownMove> {
    let positions = game.positions();
    let (mv, before) = game.moves().iter().zip(&positions).next_back()?;
    (before.turn() == Color::Black).then(|| ShownMove::new(before, mv))
}

/// The moves in PDN notation.
pub fn notation(game: &Game) -> Vec<String> {
    move_texts(game.start(), game.moves())
}

/// The game as a PDN file.
pub fn pdn(game: &Game, view: &GameView) -> String {
    let result = match game.outcome() {
        Some(Outcome::Win { winner: Color::White, .. }) => "2-0",
        Some(Outcome::Win { winner: Color::Black, .. }) => "0-2",
        Some(Outcome::Draw(_)) => "1-1",
        None => "*",
    };
    let event = view_title(view);
    let date = view.day.replace('-', ".");
    write_pdn(
        game,
        &[("Event", &event), ("Date", &date), ("White", "Joueur"), ("Black", "Ordinateur"), ("Result", result)],
        result,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(moves: &[&str]) -> GameView {
        GameView {
            id: "x".into(),
            moves: moves.iter().map(|s| s.to_string()).collect(),
            ..GameView::unstarted(GameKind::Free, "2026-11-29".into(), Level::Intermediaire)
        }
    }

    #[test]
    fn the_computers_last_move_is_shown() {
        let game = view(&["32-28", "19-23"]).replay().unwrap();
        let shown = last_computer_move(&game).unwrap();
        assert_eq!((shown.from.number(), shown.text.as_str()), (19, "19-23"));
        assert_eq!(notation(&game), vec!["32-28", "19-23"]);
        let game = view(&["32-28"]).replay().unwrap();
        assert_eq!(last_computer_move(&game), None);
    }

    #[test]
    fn pdn_of_a_view_reads_back_with_its_title() {
        let v = view(&["32-28", "19-23", "28x19{23}"]);
        let game = v.replay().unwrap();
        let text = pdn(&game, &v);
        assert!(text.contains("[Event \"Partie libre, niveau Intermédiaire\"]"), "{text}");
        let games = crate::engine::pdn::parse_pdn(&text);
        assert_eq!(crate::engine::pdn::replay(&games[0]).unwrap().moves(), game.moves());
    }

    #[test]
    fn titles() {
        assert_eq!(game_title(GameKind::Daily, "2026-11-29", Level::Intermediaire), "Défi du 29 novembre 2026");
        assert_eq!(french_date("2027-01-01"), "1er janvier 2027");
        assert_eq!(french_date("2027-08-09"), "9 août 2027");
        assert_eq!(french_date("2027-13-09"), "2027-13-09");
        assert_eq!(game_title(GameKind::Free, "2026-11-29", Level::Fort), "Partie libre, niveau Fort");
    }
}
