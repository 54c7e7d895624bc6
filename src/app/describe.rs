//! How a game is described to the player, the same way on every page: its
//! French title, its rules in words, its moves in notation, its PDN file,
//! and the last move the board keeps highlighted.

use super::input::SquareNumber;
use crate::engine::any::{AnyGame, MoveChoice};
use crate::engine::bot::Level;
use crate::engine::{Color, Outcome, Preset, Promotion, Rules};
use crate::protocol::{GameKind, GameView};

/// A game's name: "Défi du 29 novembre 2026", "Partie libre, niveau Fort",
/// "Dames anglaises, niveau Fort", "1 contre 1 — Dames russes".
pub fn game_title(kind: GameKind, day: &str, level: Level, rules: &Rules) -> String {
    match (kind, rules.variant()) {
        (GameKind::Daily, _) => format!("Défi du {}", french_date(day)),
        (GameKind::Free, Some(Preset::International)) => format!("Partie libre, niveau {}", level.label()),
        (GameKind::Free, _) => format!("{}, niveau {}", variant_name(rules), level.label()),
        (GameKind::TwoPlayers, _) => format!("1 contre 1 — {}", variant_name(rules)),
        (GameKind::Electronic, _) => format!("Dames électroniques, niveau {}", level.name()),
    }
}

/// "Dames internationales", "Dames anglaises", "Dames russes", "Dames
/// brésiliennes", or "Règles personnalisées".
pub fn variant_name(rules: &Rules) -> &'static str {
    rules.variant().map_or("Règles personnalisées", preset_name)
}

pub const fn preset_name(preset: Preset) -> &'static str {
    match preset {
        Preset::International => "Dames internationales",
        Preset::English => "Dames anglaises",
        Preset::Russian => "Dames russes",
        Preset::Brazilian => "Dames brésiliennes",
    }
}

/// Each rule in words, as the game screen lists custom rules:
/// ("Damier", "8 × 8"), ("Dames", "volantes")…
pub fn rule_lines(rules: &Rules) -> Vec<(&'static str, String)> {
    let yes_no = |b: bool| if b { "oui" } else { "non" }.to_string();
    vec![
        ("Damier", format!("{0} × {0}", rules.size)),
        ("Pions", format!("{} par camp sur {} rangées", rules.men_per_side(), rules.rows)),
        ("Trait au départ", if rules.first == Color::White { "blancs" } else { "noirs" }.into()),
        ("Prise obligatoire", yes_no(rules.mandatory)),
        ("Prise majoritaire", yes_no(rules.majority)),
        ("Les pions prennent en arrière", yes_no(rules.men_back)),
        ("Dames", if rules.flying { "volantes" } else { "courtes (une case)" }.into()),
        ("Pion arrivé au bout pendant une rafle", promotion_text(rules.promotion).into()),
        (
            "Nulle sans progrès",
            if rules.draw_moves == 0 {
                "jamais".into()
            } else {
                format!("{} coups de chaque côté", rules.draw_moves)
            },
        ),
        ("Nulle par répétition", yes_no(rules.repetition)),
    ]
}

pub const fn promotion_text(promotion: Promotion) -> &'static str {
    match promotion {
        Promotion::StaysMan => "reste pion et continue",
        Promotion::BecomesKingContinues => "devient dame et continue",
        Promotion::EndsMove => "devient dame, le coup s'arrête",
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
    game_title(view.kind, &view.day, view.level(), &view.setup.rules)
}

/// A move as the board shows it: where it started, every landing square,
/// and where the captured pieces stood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownMove {
    pub from: SquareNumber,
    pub path: Vec<SquareNumber>,
    pub captured: Vec<SquareNumber>,
    pub text: String,
    /// Who played it.
    pub by: Color,
}

impl ShownMove {
    pub fn new(by: Color, mv: MoveChoice) -> ShownMove {
        let MoveChoice { from, captured, mut paths, text, .. } = mv;
        ShownMove { from, path: paths.swap_remove(0), captured, text, by }
    }
}

/// The last move played, by either side.
pub fn last_move(game: &AnyGame) -> Option<ShownMove> {
    game.last_move().map(|(by, mv)| ShownMove::new(by, mv))
}

/// The game as a PDN file, its players named after the game's kind and
/// the player's side.
pub fn pdn(game: &AnyGame, view: &GameView) -> String {
    let result = game.outcome().map_or("*", Outcome::pdn_result);
    let event = view_title(view);
    let date = view.day.replace('-', ".");
    let (white, black) = match (view.kind.against_computer(), view.setup.player) {
        (false, _) => ("Blancs", "Noirs"),
        (true, Color::White) => ("Joueur", "Ordinateur"),
        (true, Color::Black) => ("Ordinateur", "Joueur"),
    };
    game.pdn(&[("Event", &event), ("Date", &date), ("White", white), ("Black", black), ("Result", result)], result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::GameSetup;

    fn view(moves: &[&str]) -> GameView {
        GameView {
            id: "x".into(),
            moves: moves.iter().map(|s| s.to_string()).collect(),
            ..GameView::unstarted(GameKind::Free, "2026-11-29".into(), GameSetup::daily())
        }
    }

    #[test]
    fn the_last_move_is_shown_with_who_played_it() {
        let game = view(&["32-28", "19-23"]).replay().unwrap();
        let shown = last_move(&game).unwrap();
        assert_eq!((shown.from, shown.text.as_str(), shown.by), (19, "19-23", Color::Black));
        assert_eq!(game.notation(), vec!["32-28", "19-23"]);
        let game = view(&["32-28"]).replay().unwrap();
        assert_eq!(last_move(&game).map(|m| m.by), Some(Color::White));
        assert_eq!(last_move(&view(&[]).replay().unwrap()), None);
    }

    #[test]
    fn pdn_of_a_view_reads_back_with_its_title_and_rules() {
        let v = view(&["32-28", "19-23", "28x19{23}"]);
        let game = v.replay().unwrap();
        let text = pdn(&game, &v);
        assert!(text.contains("[Event \"Partie libre, niveau Intermédiaire\"]"), "{text}");
        let games = crate::engine::pdn::parse_pdn(&text);
        let rules = games[0].rules(Rules::INTERNATIONAL).unwrap();
        assert_eq!(rules, Rules::INTERNATIONAL, "the daily rules are written as international draughts");
        let english = GameView {
            moves: vec!["11-15".into()],
            kind: GameKind::TwoPlayers,
            setup: GameSetup::new(Rules::ENGLISH, Level::Debutant, Color::White),
            start_fen: "B:W21-32:B1-12".into(),
            ..view(&[])
        };
        let text = pdn(&english.replay().unwrap(), &english);
        assert!(text.contains("[GameType \"21\"]") && text.contains("[White \"Blancs\"]"), "{text}");
    }

    #[test]
    fn titles_and_rules_in_words() {
        let daily = Rules::DAILY;
        assert_eq!(game_title(GameKind::Daily, "2026-11-29", Level::Intermediaire, &daily), "Défi du 29 novembre 2026");
        assert_eq!(french_date("2027-01-01"), "1er janvier 2027");
        assert_eq!(french_date("2027-08-09"), "9 août 2027");
        assert_eq!(french_date("2027-13-09"), "2027-13-09");
        assert_eq!(game_title(GameKind::Free, "", Level::Fort, &Rules::INTERNATIONAL), "Partie libre, niveau Fort");
        assert_eq!(game_title(GameKind::Free, "", Level::Fort, &Rules::ENGLISH), "Dames anglaises, niveau Fort");
        assert_eq!(game_title(GameKind::TwoPlayers, "", Level::Fort, &Rules::RUSSIAN), "1 contre 1 — Dames russes");
        let custom = Rules { flying: false, ..Rules::BRAZILIAN };
        assert_eq!(variant_name(&custom), "Règles personnalisées");
        assert_eq!(variant_name(&daily), "Dames internationales");
        let lines = rule_lines(&custom);
        assert!(lines.contains(&("Damier", "8 × 8".to_string())));
        assert!(lines.contains(&("Dames", "courtes (une case)".to_string())));
        assert!(lines.contains(&("Pions", "12 par camp sur 3 rangées".to_string())));
    }
}
