//! What the status line and the live region say about a game: whose turn
//! it is, how it ended (with the rules' own counts), the clock, and the
//! computer's answer — the same words on every game screen.

use super::describe::last_move;
use crate::engine::{
    Color, DrawReason, Outcome, Rules, WinReason, ENDGAME_LIMIT_MOVES, ENDGAME_STRONGER_KINGS, FMJD_COUNT_THREE,
    FMJD_COUNT_TWO,
};
use crate::protocol::GameView;

/// Who the page speaks to: one player against the computer (with their
/// side), or two players sharing the device.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seat {
    Against(Color),
    Shared,
}

impl Seat {
    pub fn of(view: &GameView) -> Seat {
        if view.kind.against_computer() {
            Seat::Against(view.setup.player)
        } else {
            Seat::Shared
        }
    }

    /// Whether the page takes a move from `turn`'s side.
    pub fn plays(self, turn: Color) -> bool {
        match self {
            Seat::Against(me) => me == turn,
            Seat::Shared => true,
        }
    }
}

/// "blancs" or "noirs".
pub const fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "blancs",
        Color::Black => "noirs",
    }
}

/// The outcome in words, as the seat sees it, with the rules' own counts.
pub fn outcome_text(outcome: Outcome, seat: Seat, rules: &Rules) -> String {
    match (outcome, seat) {
        (Outcome::Win { winner, reason }, Seat::Against(me)) if winner == me => match reason {
            WinReason::NoPieces => "Vous avez gagné : l'ordinateur n'a plus de pièce.".into(),
            WinReason::Blocked => "Vous avez gagné : l'ordinateur est bloqué.".into(),
            WinReason::Resignation => "Vous avez gagné : l'ordinateur abandonne.".into(),
        },
        (Outcome::Win { reason, .. }, Seat::Against(_)) => match reason {
            WinReason::NoPieces => "Perdu : vous n'avez plus de pièce.".into(),
            WinReason::Blocked => "Perdu : vous n'avez plus de coup possible.".into(),
            WinReason::Resignation => "Vous avez abandonné.".into(),
        },
        (Outcome::Win { winner, reason }, Seat::Shared) => {
            let (w, l) = (side_name(winner), side_name(!winner));
            match reason {
                WinReason::NoPieces => format!("Les {w} gagnent : les {l} n'ont plus de pièce."),
                WinReason::Blocked => format!("Les {w} gagnent : les {l} sont bloqués."),
                WinReason::Resignation => format!("Les {w} gagnent : les {l} abandonnent."),
            }
        }
        (Outcome::Draw(DrawReason::KingMoves), _) => {
            format!("Partie nulle : {} coups de chaque côté sans prise ni mouvement de pion.", rules.draw_moves)
        }
        (Outcome::Draw(DrawReason::MoveLimit), _) => {
            format!("Partie nulle : plus de {} coups de chaque côté.", rules.move_limit)
        }
        (Outcome::Draw(DrawReason::Repetition), _) => "Partie nulle : la même position est revenue trois fois.".into(),
        (Outcome::Draw(DrawReason::Agreement), _) => "Partie nulle d'un commun accord.".into(),
        (Outcome::Draw(DrawReason::EndgameLimit), _) => {
            let most = match ENDGAME_STRONGER_KINGS {
                1 => "une dame".to_string(),
                2 => "deux dames".to_string(),
                3 => "trois dames".to_string(),
                n => format!("{n} dames"),
            };
            format!(
                "Partie nulle : une dame seule contre {most} au plus, sans gain en {ENDGAME_LIMIT_MOVES} coups de chaque côté."
            )
        }
        (Outcome::Draw(DrawReason::EndgameCount), _) => format!(
            "Partie nulle : une dame seule tient {FMJD_COUNT_THREE} coups de chaque côté contre trois pièces, \
             {FMJD_COUNT_TWO} contre deux ou une."
        ),
    }
}

/// `mm:ss`.
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:02}:{:02}", s / 60, s % 60)
}

/// What the status line says while the game goes on (the outcome once it
/// is over).
pub struct Situation {
    pub screen: Screen,
    pub seat: Seat,
    pub turn: Color,
    pub pending: bool,
    pub must_capture: bool,
    pub started: bool,
}

/// The screen a status line is on: the electronic board's speaks as the
/// tabletop device did (no clock, no word on captures, which its board
/// marks, and "Un instant…" while a request of the player's own is out).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Screen {
    Game,
    Electronic,
}

pub fn status_text(outcome: Option<Outcome>, rules: &Rules, now: &Situation) -> String {
    if let Some(o) = outcome {
        return outcome_text(o, now.seat, rules);
    }
    if let (Screen::Electronic, Seat::Against(me)) = (now.screen, now.seat) {
        return match () {
            _ if now.pending && now.turn != me => "L'ordinateur réfléchit…".into(),
            _ if now.pending => "Un instant…".into(),
            _ if now.turn == me => format!("À vous de jouer ({}).", side_name(me)),
            _ => format!("Au tour de l'ordinateur ({}).", side_name(now.turn)),
        };
    }
    let forced = if now.must_capture { " : la prise est obligatoire." } else { "." };
    match now.seat {
        Seat::Against(_) if now.pending => "L'ordinateur réfléchit…".into(),
        Seat::Against(me) if now.turn != me && !now.started => {
            "L'ordinateur a le trait : lancez la partie pour qu'il joue son premier coup.".into()
        }
        Seat::Against(me) if now.turn != me => format!("Au tour de l'ordinateur ({}).", side_name(!me)),
        Seat::Against(me) if now.must_capture => format!("À vous de jouer ({}){forced}", side_name(me)),
        Seat::Against(me) if !now.started => {
            format!("À vous de jouer ({}). Le chrono démarre à votre premier coup.", side_name(me))
        }
        Seat::Against(me) => format!("À vous de jouer ({}).", side_name(me)),
        Seat::Shared if now.pending => "Enregistrement du coup…".into(),
        Seat::Shared => format!("Aux {} de jouer{forced}", side_name(now.turn)),
    }
}

/// What the live region says after the server's answer: the computer's
/// move, and how the game ended if it did.
pub fn answer_announcement(next: &GameView, seat: Seat) -> String {
    let Ok(game) = next.replay() else { return String::new() };
    let mut text = match (seat, last_move(&game)) {
        (Seat::Against(me), Some(m)) if m.by != me => format!("L'ordinateur joue {}.", m.text),
        (Seat::Shared, Some(m)) => format!("Les {} jouent {}.", side_name(m.by), m.text),
        _ => String::new(),
    };
    if let Some(o) = game.outcome() {
        text.push(' ');
        text.push_str(&outcome_text(o, seat, &game.rules()));
    }
    text.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now(seat: Seat, turn: Color, must_capture: bool, started: bool) -> Situation {
        Situation { screen: Screen::Game, seat, turn, pending: false, must_capture, started }
    }

    #[test]
    fn clock_and_outcome_texts() {
        assert_eq!(clock_text(0), "00:00");
        assert_eq!(clock_text(754_999), "12:34");
        let me = Seat::Against(Color::White);
        assert!(outcome_text(Outcome::Draw(DrawReason::MoveLimit), me, &Rules::DAILY).contains("150"));
        assert!(outcome_text(Outcome::Draw(DrawReason::KingMoves), me, &Rules::ENGLISH).contains("40 coups"));
        let black_wins = Outcome::Win { winner: Color::Black, reason: WinReason::NoPieces };
        assert!(outcome_text(black_wins, Seat::Against(Color::Black), &Rules::RUSSIAN).starts_with("Vous avez gagné"));
        assert_eq!(
            outcome_text(black_wins, Seat::Shared, &Rules::RUSSIAN),
            "Les noirs gagnent : les blancs n'ont plus de pièce."
        );
        assert!(outcome_text(Outcome::Draw(DrawReason::EndgameLimit), me, &Rules::ELECTRONIC)
            .contains("une dame seule contre trois dames au plus, sans gain en 10 coups"));
        assert!(outcome_text(Outcome::Draw(DrawReason::EndgameCount), me, &Rules::INTERNATIONAL)
            .contains("16 coups de chaque côté contre trois pièces, 5 contre deux ou une"));
        assert_eq!(
            outcome_text(Outcome::Draw(DrawReason::Agreement), Seat::Shared, &Rules::ENGLISH),
            "Partie nulle d'un commun accord."
        );
    }

    #[test]
    fn the_status_line_says_what_to_do() {
        let white = Seat::Against(Color::White);
        let rules = Rules::DAILY;
        assert!(status_text(None, &rules, &now(white, Color::White, false, false)).contains("premier coup"));
        assert_eq!(
            status_text(None, &rules, &now(white, Color::White, true, true)),
            "À vous de jouer (blancs) : la prise est obligatoire."
        );
        let thinking = Situation { pending: true, ..now(white, Color::White, false, true) };
        assert_eq!(status_text(None, &rules, &thinking), "L'ordinateur réfléchit…");
        assert_eq!(
            status_text(None, &rules, &now(white, Color::Black, false, true)),
            "Au tour de l'ordinateur (noirs)."
        );
        let black = Seat::Against(Color::Black);
        assert!(status_text(None, &rules, &now(black, Color::White, false, false)).contains("lancez la partie"));
        assert_eq!(status_text(None, &rules, &now(black, Color::Black, false, true)), "À vous de jouer (noirs).");
        assert_eq!(
            status_text(None, &rules, &now(Seat::Shared, Color::Black, true, true)),
            "Aux noirs de jouer : la prise est obligatoire."
        );
        let device = |pending, turn| Situation { screen: Screen::Electronic, pending, ..now(black, turn, true, true) };
        assert_eq!(status_text(None, &rules, &device(false, Color::Black)), "À vous de jouer (noirs).");
        assert_eq!(status_text(None, &rules, &device(true, Color::Black)), "Un instant…");
        assert_eq!(status_text(None, &rules, &device(true, Color::White)), "L'ordinateur réfléchit…");
        assert_eq!(status_text(None, &rules, &device(false, Color::White)), "Au tour de l'ordinateur (blancs).");
        let drawn = Some(Outcome::Draw(DrawReason::KingMoves));
        assert!(status_text(drawn, &rules, &now(white, Color::White, false, true)).contains("25 coups"));
    }
}
