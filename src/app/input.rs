//! The board's input as a small state machine, apart from the view so that
//! it can be tested: nothing selected → a piece selected → a rafle being
//! entered step by step → a move to send.
//!
//! A tap on a destination plays the move when exactly one legal move ends
//! there (whatever route it takes); when several do, the player taps the
//! landing squares one by one until one move is left.

use crate::engine::{Move, Position, Square};

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum InputState {
    #[default]
    Idle,
    /// A piece is selected; `steps` are the landing squares tapped so far.
    Selected { from: Square, steps: Vec<Square> },
}

/// What a tap did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TapResult {
    /// Nothing to do (a tap on an empty square with nothing selected).
    Ignored,
    /// The selection changed.
    Changed,
    /// A whole move was entered: send it.
    Play(Move),
}

/// The legal moves and their capture paths, computed once per position.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MoveOptions {
    pub moves: Vec<(Move, Vec<Vec<Square>>)>,
}

impl MoveOptions {
    pub fn new(pos: &Position) -> MoveOptions {
        MoveOptions {
            moves: pos
                .legal_moves()
                .into_iter()
                .map(|m| {
                    let paths = if m.is_capture() { pos.capture_paths(&m) } else { vec![vec![m.to]] };
                    (m, paths)
                })
                .collect(),
        }
    }

    pub fn none() -> MoveOptions {
        MoveOptions::default()
    }

    /// Squares of the pieces that can move.
    pub fn movable(&self) -> Vec<Square> {
        let mut from: Vec<Square> = self.moves.iter().map(|(m, _)| m.from).collect();
        from.sort();
        from.dedup();
        from
    }

    pub fn must_capture(&self) -> bool {
        self.moves.first().is_some_and(|(m, _)| m.is_capture())
    }

    /// Moves from `from` with a path that starts with `steps`.
    fn candidates<'a>(
        &'a self,
        from: Square,
        steps: &'a [Square],
    ) -> impl Iterator<Item = &'a (Move, Vec<Vec<Square>>)> + 'a {
        self.moves.iter().filter(move |(m, paths)| m.from == from && paths.iter().any(|p| p.starts_with(steps)))
    }
}

/// Where a selected piece may go next.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Targets {
    /// Squares where one tap ends a move (one legal move ends there).
    pub finals: Vec<Square>,
    /// Landing squares to tap one by one (several moves pass or end there).
    pub steps: Vec<Square>,
}

impl InputState {
    /// The selected piece, if any.
    pub fn selected(&self) -> Option<Square> {
        match self {
            InputState::Idle => None,
            InputState::Selected { from, .. } => Some(*from),
        }
    }

    /// Handles a tap (or click, or Enter) on `square`.
    pub fn tap(&mut self, options: &MoveOptions, square: Square) -> TapResult {
        let movable = options.movable();
        let InputState::Selected { from, steps } = self else {
            if movable.contains(&square) {
                *self = InputState::Selected { from: square, steps: Vec::new() };
                return TapResult::Changed;
            }
            return TapResult::Ignored;
        };
        let (from, mut steps) = (*from, steps.clone());
        let ending_here: Vec<Move> =
            options.candidates(from, &steps).filter(|(m, _)| m.to == square).map(|(m, _)| *m).collect();
        if ending_here.len() == 1 {
            *self = InputState::Idle;
            return TapResult::Play(ending_here[0]);
        }
        let k = steps.len();
        let passes_here = options
            .candidates(from, &steps)
            .any(|(_, paths)| paths.iter().any(|p| p.starts_with(&steps) && p.get(k) == Some(&square)));
        if passes_here {
            steps.push(square);
            let complete: Vec<Move> = options
                .candidates(from, &steps)
                .filter(|(m, paths)| paths.iter().any(|p| p.as_slice() == steps.as_slice()) && m.to == square)
                .map(|(m, _)| *m)
                .collect();
            if complete.len() == 1 && options.candidates(from, &steps).count() == 1 {
                *self = InputState::Idle;
                return TapResult::Play(complete[0]);
            }
            *self = InputState::Selected { from, steps };
            return TapResult::Changed;
        }
        if steps.is_empty() && movable.contains(&square) && square != from {
            *self = InputState::Selected { from: square, steps: Vec::new() };
            return TapResult::Changed;
        }
        *self = InputState::Idle;
        TapResult::Changed
    }

    /// Escape: drop the selection.
    pub fn cancel(&mut self) -> bool {
        let changed = *self != InputState::Idle;
        *self = InputState::Idle;
        changed
    }

    /// Where the selected piece may be tapped next.
    pub fn targets(&self, options: &MoveOptions) -> Targets {
        let InputState::Selected { from, steps } = self else {
            return Targets::default();
        };
        let mut targets = Targets::default();
        let k = steps.len();
        let candidates: Vec<_> = options.candidates(*from, steps).collect();
        for (m, paths) in &candidates {
            let ending_same: usize = candidates.iter().filter(|(o, _)| o.to == m.to).count();
            if ending_same == 1 && !targets.finals.contains(&m.to) {
                targets.finals.push(m.to);
            }
            for p in paths.iter().filter(|p| p.starts_with(steps)) {
                if let Some(next) = p.get(k) {
                    if !targets.steps.contains(next) && (ending_same != 1 || *next != m.to || k + 1 != p.len()) {
                        targets.steps.push(*next);
                    }
                }
            }
        }
        targets.steps.retain(|s| !targets.finals.contains(s));
        targets.finals.sort();
        targets.steps.sort();
        targets
    }

    /// Pieces jumped by the landing squares tapped so far: they stay on the
    /// board, shown as ghosts, until the rafle ends.
    pub fn jumped(&self, pos: &Position) -> Vec<Square> {
        let InputState::Selected { from, steps } = self else {
            return Vec::new();
        };
        let mut jumped = Vec::new();
        let mut at = *from;
        for &next in steps {
            jumped.extend(at.between(next).into_iter().filter(|s| pos.piece_at(*s).is_some()));
            at = next;
        }
        jumped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    fn options(fen: &str) -> (Position, MoveOptions) {
        let pos = Position::from_fen(fen).unwrap();
        let opts = MoveOptions::new(&pos);
        (pos, opts)
    }

    #[test]
    fn select_then_destination_plays_a_quiet_move() {
        let (_, opts) = options("W:W31-50:B1-20");
        let mut input = InputState::Idle;
        assert_eq!(input.tap(&opts, sq(25)), TapResult::Ignored);
        assert_eq!(input.tap(&opts, sq(32)), TapResult::Changed);
        assert_eq!(input.targets(&opts).finals, vec![sq(27), sq(28)]);
        // Another own movable piece switches the selection.
        assert_eq!(input.tap(&opts, sq(33)), TapResult::Changed);
        assert_eq!(input.selected(), Some(sq(33)));
        match input.tap(&opts, sq(29)) {
            TapResult::Play(m) => assert_eq!(m.long_form().to_string(), "33-29"),
            other => panic!("{other:?}"),
        }
        assert_eq!(input, InputState::Idle);
    }

    #[test]
    fn elsewhere_and_escape_cancel() {
        let (_, opts) = options("W:W31-50:B1-20");
        let mut input = InputState::Idle;
        input.tap(&opts, sq(32));
        assert_eq!(input.tap(&opts, sq(5)), TapResult::Changed);
        assert_eq!(input, InputState::Idle);
        input.tap(&opts, sq(32));
        assert!(input.cancel());
        assert!(!input.cancel());
    }

    #[test]
    fn a_unique_rafle_is_played_by_its_final_square() {
        // 47x26 takes 9, 12 and 33 by one route ending on 26 (and others).
        let (_, opts) = options("W:WK47:B9,12,33");
        let mut input = InputState::Idle;
        input.tap(&opts, sq(47));
        let targets = input.targets(&opts);
        assert_eq!(targets.finals, vec![sq(17), sq(21), sq(26)]);
        match input.tap(&opts, sq(26)) {
            TapResult::Play(m) => assert_eq!(m.long_form().to_string(), "47x26{9,12,33}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn two_rafles_to_one_square_need_their_steps() {
        // A position from a real game (Baba Sy): the black king on 2 can end
        // on 17 taking {22, 24, 34} or {22, 24, 40}.
        let (pos, opts) = options("B:W22,24,27,31,34,40,45,48:BK2,7,15,25");
        let to_17: Vec<&(Move, Vec<Vec<Square>>)> = opts.moves.iter().filter(|(m, _)| m.to == sq(17)).collect();
        assert_eq!(to_17.len(), 2);
        let mut input = InputState::Idle;
        input.tap(&opts, sq(2));
        assert!(!input.targets(&opts).finals.contains(&sq(17)));
        assert!(!matches!(input.tap(&opts, sq(17)), TapResult::Play(_)), "an ambiguous end does not play");

        for (target, paths) in to_17 {
            let mut input = InputState::Idle;
            input.tap(&opts, sq(2));
            let mut played = None;
            for (i, step) in paths[0].iter().enumerate() {
                match input.tap(&opts, *step) {
                    TapResult::Play(m) => {
                        played = Some(m);
                        break;
                    }
                    TapResult::Changed => assert_eq!(input.jumped(&pos).len(), i + 1, "ghosts so far"),
                    TapResult::Ignored => panic!("step {step} ignored"),
                }
            }
            assert_eq!(played, Some(*target));
        }
    }
}
