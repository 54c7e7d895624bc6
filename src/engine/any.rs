//! A position on any board: the geometry chosen at run time from the rules'
//! board size, for what reads rules from text (the command line, test data)
//! and so cannot name the board's type.

use super::geometry::{Eight, Geometry, Ten, Twelve};
use super::notation::FenError;
use super::{perft, perft_divide, Position, PositionError, Rules};

/// A position of a rule set whose board is known only at run time.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AnyPosition {
    Eight(Position<Eight>),
    Ten(Position<Ten>),
    Twelve(Position<Twelve>),
}

/// Runs `$body` with `$p` bound to the position, whatever its board.
macro_rules! on_board {
    ($any:expr, |$p:ident| $body:expr) => {
        match $any {
            AnyPosition::Eight($p) => $body,
            AnyPosition::Ten($p) => $body,
            AnyPosition::Twelve($p) => $body,
        }
    };
}

impl AnyPosition {
    /// The start position of `rules`.
    pub fn initial(rules: Rules) -> Result<AnyPosition, PositionError> {
        Ok(match rules.size {
            8 => AnyPosition::Eight(Position::initial(rules)?),
            12 => AnyPosition::Twelve(Position::initial(rules)?),
            _ => AnyPosition::Ten(Position::initial(rules)?),
        })
    }

    /// A position in FEN, played under `rules`.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<AnyPosition, FenError> {
        Ok(match rules.size {
            8 => AnyPosition::Eight(Position::from_fen_with(fen, rules)?),
            12 => AnyPosition::Twelve(Position::from_fen_with(fen, rules)?),
            _ => AnyPosition::Ten(Position::from_fen_with(fen, rules)?),
        })
    }

    pub fn rules(&self) -> Rules {
        on_board!(self, |p| p.rules())
    }

    pub fn to_fen(&self) -> String {
        on_board!(self, |p| p.to_fen())
    }

    /// Leaves of the move tree `depth` plies deep (see [`perft`]).
    pub fn perft(&self, depth: u32) -> u64 {
        on_board!(self, |p| perft(p, depth))
    }

    /// Perft by first move, each written in long form.
    pub fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        on_board!(self, |p| divide_texts(p, depth))
    }

    /// Every legal move in long form (`32-28`, `28x19{23}`), sorted by
    /// start, end and captured squares.
    pub fn legal_move_texts(&self) -> Vec<String> {
        on_board!(self, |p| sorted_texts(p))
    }
}

fn divide_texts<G: Geometry>(pos: &Position<G>, depth: u32) -> Vec<(String, u64)> {
    perft_divide(pos, depth).into_iter().map(|(m, n)| (m.long_form().to_string(), n)).collect()
}

fn sorted_texts<G: Geometry>(pos: &Position<G>) -> Vec<String> {
    let mut moves = pos.legal_moves().into_vec();
    moves.sort_by_key(|m| m.sort_key());
    moves.iter().map(|m| m.long_form().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_set_gets_its_board() {
        let english = AnyPosition::initial(Rules::ENGLISH).unwrap();
        assert!(matches!(english, AnyPosition::Eight(_)));
        assert_eq!(english.to_fen(), "B:W21-32:B1-12");
        assert_eq!(english.legal_move_texts(), ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]);
        let twelve = AnyPosition::initial(Rules::parse("international,size=12").unwrap()).unwrap();
        assert_eq!(twelve.to_fen(), "W:W43-72:B1-30");
        assert_eq!(twelve.perft(1), 11);
        assert_eq!(AnyPosition::initial(Rules::INTERNATIONAL).unwrap().perft(2), 81);
        assert!(AnyPosition::from_fen("W:W33:B1", Rules::ENGLISH).is_err(), "no square 33 on 8×8");
    }
}
