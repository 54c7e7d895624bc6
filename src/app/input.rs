//! The board's input as a small state machine, apart from the view so that
//! it can be tested: nothing selected → a piece selected → a rafle being
//! entered step by step → a move to send.
//!
//! By default ([`RafleInput::FinalSquare`]) a tap on a destination plays
//! the move when exactly one legal move ends there (whatever route it
//! takes); when several do, the player taps the landing squares one by one
//! until one move is left. Square by square, every landing square of a
//! rafle is tapped, the last one playing it.

use crate::engine::any::{AnyPosition, MoveChoice};
use crate::protocol::RafleInput;

/// A square's number on the board (1 to 32, 50 or 72).
pub type SquareNumber = u8;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum InputState {
    #[default]
    Idle,
    /// A piece is selected; `steps` are the landing squares tapped so far.
    Selected { from: SquareNumber, steps: Vec<SquareNumber> },
}

/// What a tap did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TapResult {
    /// Nothing to do (a tap on an empty square with nothing selected).
    Ignored,
    /// The selection changed.
    Changed,
    /// A whole move was entered: send it.
    Play(MoveChoice),
}

/// The legal moves and their capture paths, computed once per position.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MoveOptions {
    pub moves: Vec<MoveChoice>,
    /// A capture is due (as the engine says: under optional capture,
    /// never).
    must_capture: bool,
}

impl MoveOptions {
    pub fn new(pos: &AnyPosition) -> MoveOptions {
        MoveOptions { moves: pos.choices(), must_capture: pos.must_capture() }
    }

    pub fn none() -> MoveOptions {
        MoveOptions::default()
    }

    /// Squares of the pieces that can move.
    pub fn movable(&self) -> Vec<SquareNumber> {
        let mut from: Vec<SquareNumber> = self.moves.iter().map(|m| m.from).collect();
        from.sort();
        from.dedup();
        from
    }

    /// Whether a capture is due.
    pub fn must_capture(&self) -> bool {
        self.must_capture
    }

    /// Moves from `from` with a path that starts with `steps`.
    fn candidates<'a>(
        &'a self,
        from: SquareNumber,
        steps: &'a [SquareNumber],
    ) -> impl Iterator<Item = &'a MoveChoice> + 'a {
        self.moves.iter().filter(move |m| m.from == from && m.paths.iter().any(|p| p.starts_with(steps)))
    }
}

/// Whether one of the move's routes is `steps` and then its last jump.
fn ends_after(choice: &MoveChoice, steps: &[SquareNumber]) -> bool {
    choice.paths.iter().any(|p| p.len() == steps.len() + 1 && p.starts_with(steps))
}

/// Where a selected piece may go next.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Targets {
    /// Squares where one tap ends a move (one legal move ends there).
    pub finals: Vec<SquareNumber>,
    /// Landing squares to tap one by one (several moves pass or end there).
    pub steps: Vec<SquareNumber>,
}

impl InputState {
    /// The selected piece, if any.
    pub fn selected(&self) -> Option<SquareNumber> {
        match self {
            InputState::Idle => None,
            InputState::Selected { from, .. } => Some(*from),
        }
    }

    /// Handles a tap (or click, or Enter) on `square`, rafles entered as
    /// `mode` says.
    pub fn tap(&mut self, options: &MoveOptions, square: SquareNumber, mode: RafleInput) -> TapResult {
        let movable = options.movable();
        let InputState::Selected { from, steps } = self else {
            if movable.contains(&square) {
                *self = InputState::Selected { from: square, steps: Vec::new() };
                return TapResult::Changed;
            }
            return TapResult::Ignored;
        };
        let (from, mut steps) = (*from, steps.clone());
        let k = steps.len();
        let ending_here: Vec<&MoveChoice> = options
            .candidates(from, &steps)
            .filter(|m| m.to == square && (mode == RafleInput::FinalSquare || ends_after(m, &steps)))
            .collect();
        if ending_here.len() == 1 {
            let chosen = ending_here[0].clone();
            *self = InputState::Idle;
            return TapResult::Play(chosen);
        }
        let passes_here = options
            .candidates(from, &steps)
            .any(|m| m.paths.iter().any(|p| p.starts_with(&steps) && p.get(k) == Some(&square)));
        if passes_here {
            steps.push(square);
            let complete: Vec<&MoveChoice> = options
                .candidates(from, &steps)
                .filter(|m| m.paths.iter().any(|p| p.as_slice() == steps.as_slice()) && m.to == square)
                .collect();
            if complete.len() == 1 && options.candidates(from, &steps).count() == 1 {
                let chosen = complete[0].clone();
                *self = InputState::Idle;
                return TapResult::Play(chosen);
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
    pub fn targets(&self, options: &MoveOptions, mode: RafleInput) -> Targets {
        let InputState::Selected { from, steps } = self else {
            return Targets::default();
        };
        let mut targets = Targets::default();
        let k = steps.len();
        let mut candidates: Vec<&MoveChoice> = options.candidates(*from, steps).collect();
        for m in candidates.clone() {
            // Square by square, a rafle's final square is a target only
            // once its last jump is next; before that, the next landing
            // squares are steps.
            if mode == RafleInput::SquareBySquare && !ends_after(m, steps) {
                for next in m.paths.iter().filter_map(|p| p.get(k)) {
                    if !targets.steps.contains(next) {
                        targets.steps.push(*next);
                    }
                }
                candidates.retain(|c| *c != m);
            }
        }
        for m in &candidates {
            let ending_same: usize = candidates.iter().filter(|o| o.to == m.to).count();
            if ending_same == 1 && !targets.finals.contains(&m.to) {
                targets.finals.push(m.to);
            }
            for p in m.paths.iter().filter(|p| p.starts_with(steps)) {
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
    pub fn jumped(&self, pos: &AnyPosition) -> Vec<SquareNumber> {
        match self {
            InputState::Idle => Vec::new(),
            InputState::Selected { from, steps } => pos.jumped(*from, steps),
        }
    }
}

/// What a first tap on each movable piece would mark, written into the
/// page by the server (`data-first-taps` on the board) for the small script
/// that answers taps before the browser code has arrived
/// (`app/first_taps.js`): `"32:27,28:;33:28,29:"`, each movable square
/// with its final squares, then its step squares.
pub fn first_taps(options: &MoveOptions, mode: RafleInput) -> String {
    let list = |squares: &[SquareNumber]| squares.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",");
    options
        .movable()
        .into_iter()
        .map(|square| {
            let mut input = InputState::Idle;
            input.tap(options, square, mode);
            let targets = input.targets(options, mode);
            format!("{square}:{}:{}", list(&targets.finals), list(&targets.steps))
        })
        .collect::<Vec<_>>()
        .join(";")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_taps_are_what_a_tap_on_each_piece_marks() {
        let (_, opts) = options("W:W31-50:B1-20");
        assert_eq!(first_taps(&opts, FINAL), "31:26,27:;32:27,28:;33:28,29:;34:29,30:;35:30:");
        // A king with rafles by one route to 17, 21 and 26, or square by
        // square: its first landing squares are steps.
        let (_, opts) = options("W:WK47:B9,12,33");
        assert!(first_taps(&opts, FINAL).starts_with("47:17,21,26:"), "{}", first_taps(&opts, FINAL));
        let mut input = InputState::Idle;
        input.tap(&opts, sq(47), STEPWISE);
        let steps = input.targets(&opts, STEPWISE).steps;
        assert!(!steps.is_empty());
        let steps = steps.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",");
        assert_eq!(first_taps(&opts, STEPWISE), format!("47::{steps}"));
        assert_eq!(first_taps(&MoveOptions::none(), FINAL), "");
    }

    use crate::engine::Rules;

    const FINAL: RafleInput = RafleInput::FinalSquare;
    const STEPWISE: RafleInput = RafleInput::SquareBySquare;

    fn sq(n: u8) -> SquareNumber {
        n
    }

    fn options(fen: &str) -> (AnyPosition, MoveOptions) {
        options_with(fen, Rules::INTERNATIONAL)
    }

    fn options_with(fen: &str, rules: Rules) -> (AnyPosition, MoveOptions) {
        let pos = AnyPosition::from_fen(fen, rules).unwrap();
        let opts = MoveOptions::new(&pos);
        (pos, opts)
    }

    #[test]
    fn select_then_destination_plays_a_quiet_move() {
        let (_, opts) = options("W:W31-50:B1-20");
        let mut input = InputState::Idle;
        assert_eq!(input.tap(&opts, sq(25), FINAL), TapResult::Ignored);
        assert_eq!(input.tap(&opts, sq(32), FINAL), TapResult::Changed);
        assert_eq!(input.targets(&opts, FINAL).finals, vec![sq(27), sq(28)]);
        // Another own movable piece switches the selection.
        assert_eq!(input.tap(&opts, sq(33), FINAL), TapResult::Changed);
        assert_eq!(input.selected(), Some(sq(33)));
        match input.tap(&opts, sq(29), FINAL) {
            TapResult::Play(m) => assert_eq!(m.long, "33-29"),
            other => panic!("{other:?}"),
        }
        assert_eq!(input, InputState::Idle);
    }

    #[test]
    fn elsewhere_and_escape_cancel() {
        let (_, opts) = options("W:W31-50:B1-20");
        let mut input = InputState::Idle;
        input.tap(&opts, sq(32), FINAL);
        assert_eq!(input.tap(&opts, sq(5), FINAL), TapResult::Changed);
        assert_eq!(input, InputState::Idle);
        input.tap(&opts, sq(32), FINAL);
        assert!(input.cancel());
        assert!(!input.cancel());
    }

    #[test]
    fn a_unique_rafle_is_played_by_its_final_square() {
        // 47x26 takes 9, 12 and 33 by one route ending on 26 (and others).
        let (_, opts) = options("W:WK47:B9,12,33");
        let mut input = InputState::Idle;
        input.tap(&opts, sq(47), FINAL);
        let targets = input.targets(&opts, FINAL);
        assert_eq!(targets.finals, vec![sq(17), sq(21), sq(26)]);
        match input.tap(&opts, sq(26), FINAL) {
            TapResult::Play(m) => assert_eq!(m.long, "47x26{9,12,33}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn two_rafles_to_one_square_need_their_steps() {
        // A position from a real game (Baba Sy): the black king on 2 can end
        // on 17 taking {22, 24, 34} or {22, 24, 40}.
        let (pos, opts) = options("B:W22,24,27,31,34,40,45,48:BK2,7,15,25");
        let to_17: Vec<&MoveChoice> = opts.moves.iter().filter(|m| m.to == sq(17)).collect();
        assert_eq!(to_17.len(), 2);
        let mut input = InputState::Idle;
        input.tap(&opts, sq(2), FINAL);
        assert!(!input.targets(&opts, FINAL).finals.contains(&sq(17)));
        assert!(!matches!(input.tap(&opts, sq(17), FINAL), TapResult::Play(_)), "an ambiguous end does not play");

        for target in to_17 {
            let paths = &target.paths;
            let mut input = InputState::Idle;
            input.tap(&opts, sq(2), FINAL);
            let mut played = None;
            for (i, step) in paths[0].iter().enumerate() {
                match input.tap(&opts, *step, FINAL) {
                    TapResult::Play(m) => {
                        played = Some(m);
                        break;
                    }
                    TapResult::Changed => assert_eq!(input.jumped(&pos).len(), i + 1, "ghosts so far"),
                    TapResult::Ignored => panic!("step {step} ignored"),
                }
            }
            assert_eq!(played.as_ref(), Some(target));
        }
    }

    #[test]
    fn a_russian_man_crowned_mid_capture_goes_on_step_by_step() {
        // Russian rules: the white man on 9 takes 6 and lands on 2 (the far
        // row), crowned, then takes 11 at a distance as a king, landing on
        // 16 or 20: two moves, so the landing squares are tapped one by one.
        let (pos, opts) = options_with("W:W9:B6,11", Rules::RUSSIAN);
        assert!(opts.must_capture());
        let mut input = InputState::Idle;
        input.tap(&opts, 9, FINAL);
        assert_eq!(input.targets(&opts, FINAL), Targets { finals: vec![16, 20], steps: vec![2] });
        let choice = opts.moves.iter().find(|m| m.to == 16).expect("the rafle over 6 then 11");
        assert_eq!((choice.captured.clone(), choice.paths.clone()), (vec![6, 11], vec![vec![2, 16]]));
        let mut played = None;
        for step in &choice.paths[0] {
            if let TapResult::Play(m) = input.tap(&opts, *step, FINAL) {
                played = Some(m);
            } else {
                assert!(!input.jumped(&pos).is_empty(), "ghosts after a step");
            }
        }
        assert_eq!(played.as_ref(), Some(choice));
    }

    #[test]
    fn square_by_square_a_rafle_takes_every_landing_square() {
        // 47x26 over 33, 12 and 9 has one route ending on 26: by its final
        // square one tap plays it; square by square, 26 is not a target
        // until the route's last jump is next.
        let (_, opts) = options("W:WK47:B9,12,33");
        let choice = opts.moves.iter().find(|m| m.long == "47x26{9,12,33}").expect("the rafle to 26").clone();
        let route = choice.paths[0].clone();
        assert!(route.len() > 1, "{route:?}");
        let mut input = InputState::Idle;
        input.tap(&opts, sq(47), STEPWISE);
        let first = input.targets(&opts, STEPWISE);
        assert!(!first.finals.contains(&sq(26)), "{first:?}");
        assert!(first.steps.contains(&route[0]), "{first:?}");
        assert!(!matches!(input.tap(&opts, sq(26), STEPWISE), TapResult::Play(_)), "the final square alone");

        let mut input = InputState::Idle;
        input.tap(&opts, sq(47), STEPWISE);
        let (last, before) = route.split_last().unwrap();
        for step in before {
            assert_eq!(input.tap(&opts, *step, STEPWISE), TapResult::Changed, "step {step}");
        }
        assert!(input.targets(&opts, STEPWISE).finals.contains(last));
        assert_eq!(input.tap(&opts, *last, STEPWISE), TapResult::Play(choice));
    }

    #[test]
    fn square_by_square_a_quiet_move_is_still_one_tap() {
        let (_, opts) = options("W:W31-50:B1-20");
        let mut input = InputState::Idle;
        input.tap(&opts, sq(32), STEPWISE);
        assert_eq!(input.targets(&opts, STEPWISE).finals, vec![sq(27), sq(28)]);
        assert!(matches!(input.tap(&opts, sq(28), STEPWISE), TapResult::Play(m) if m.long == "32-28"));
    }

    #[test]
    fn optional_capture_marks_every_movable_piece_and_nothing_is_due() {
        let (_, opts) = options_with("W:W28,40:B22", Rules::parse("international,mandatory=0").unwrap());
        assert!(!opts.must_capture());
        assert!(opts.movable().contains(&40));
    }
}
