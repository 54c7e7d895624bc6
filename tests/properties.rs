//! Properties of the rules engine on random playouts from the start and
//! from random legal positions.

use dames::engine::bot::{self, Level};
use dames::engine::geometry::Ten;
use dames::engine::{Bitboard, Color, Game, Position, Setup, Square};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashSet};

/// Plays `choices` (each taken modulo the number of legal moves) from
/// `start`, returning every position reached.
fn playout(start: Position, choices: &[u16]) -> Vec<Position> {
    let mut pos = start;
    let mut seen = vec![pos];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(&moves[c as usize % moves.len()]);
        seen.push(pos);
    }
    seen
}

/// A random legal position: pieces on random squares, men off their
/// promotion rows.
fn random_position() -> impl Strategy<Value = Position> {
    (proptest::collection::vec(0u8..6, 50), any::<bool>()).prop_map(|(cells, black)| {
        let mut setup = Setup { turn: Some(if black { Color::Black } else { Color::White }), ..Setup::default() };
        for (square, cell) in Square::all().zip(cells) {
            match cell {
                1 if square.row() != 0 => setup.white = setup.white.with(square),
                2 if square.row() != 9 => setup.black = setup.black.with(square),
                3 => {
                    setup.white = setup.white.with(square);
                    setup.kings = setup.kings.with(square);
                }
                4 => {
                    setup.black = setup.black.with(square);
                    setup.kings = setup.kings.with(square);
                }
                _ => {}
            }
        }
        // Keep at most 20 a side, as a real game does.
        for side in [&mut setup.white, &mut setup.black] {
            while side.count() > 20 {
                let s = side.first().unwrap();
                *side = side.without(s);
                setup.kings = setup.kings.without(s);
            }
        }
        Position::from_setup(setup).expect("built legal")
    })
}

fn check_invariants(pos: &Position) -> Result<(), TestCaseError> {
    let moves = pos.legal_moves();
    // No two moves with the same (from, to, captured).
    let distinct: HashSet<_> = moves.iter().map(|m| (m.from, m.to, m.captured)).collect();
    prop_assert_eq!(distinct.len(), moves.len());
    // Every capture takes the same, maximal, number of pieces.
    let counts: HashSet<u32> = moves.iter().map(|m| m.capture_count()).collect();
    prop_assert!(counts.len() <= 1, "capture counts {:?}", counts);
    prop_assert_eq!(pos.count_legal_moves(), moves.len());
    prop_assert_eq!(pos.has_capture(), moves.first().is_some_and(|m| m.is_capture()));
    prop_assert_eq!(pos.has_legal_move(), !moves.is_empty());
    let us = pos.pieces(pos.turn());
    let them = pos.pieces(!pos.turn());
    for m in &moves {
        let before = *pos;
        let after = pos.play_unchecked(m);
        // Copy-make: the original is untouched.
        prop_assert_eq!(*pos, before);
        prop_assert_eq!(after.turn(), !pos.turn());
        prop_assert_eq!(after.pieces(pos.turn()).count(), us.count());
        prop_assert_eq!(after.pieces(!pos.turn()).count(), them.count() - m.capture_count());
        prop_assert!(after.pieces(pos.turn()).contains(m.to));
        prop_assert!((m.captured & them) == m.captured);
        prop_assert!((after.pieces(Color::White) & after.pieces(Color::Black)).is_empty());
        prop_assert!((after.kings() & !(after.pieces(Color::White) | after.pieces(Color::Black))).is_empty());
        // Every capture has a path, and the landing squares end on `to`.
        if m.is_capture() {
            let paths = pos.capture_paths(m);
            prop_assert!(!paths.is_empty());
            for p in paths {
                prop_assert_eq!(p.len() as u32, m.capture_count());
                prop_assert_eq!(p.last().copied(), Some(m.to));
            }
        }
        // The FEN of the result reads back.
        prop_assert_eq!(Position::from_fen(&after.to_fen()).ok(), Some(after));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn playouts_from_the_start_keep_the_invariants(choices in proptest::collection::vec(any::<u16>(), 0..120)) {
        for pos in playout(Position::start(), &choices) {
            check_invariants(&pos)?;
        }
    }

    #[test]
    fn random_positions_keep_the_invariants(pos in random_position(), choices in proptest::collection::vec(any::<u16>(), 0..20)) {
        for p in playout(pos, &choices) {
            check_invariants(&p)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The bot only ever returns a legal move, from any position.
    #[test]
    fn the_bot_never_returns_an_illegal_move(pos in random_position(), seed in any::<u64>()) {
        let game = Game::new(pos);
        match bot::reply(&game, Level::Debutant, seed) {
            None => prop_assert!(game.is_over()),
            Some(reply) => prop_assert!(pos.legal_moves().contains(&reply.mv)),
        }
        // Past its random opening moves, with a real search.
        let mut later = Game::new(pos);
        if !later.is_over() {
            let limits = Level::Intermediaire.limits();
            let result = bot::search(later.position(), Default::default(), &limits).unwrap();
            for m in &result.best_moves {
                prop_assert!(pos.legal_moves().contains(m));
            }
            later.play(&result.best_moves[0]).unwrap();
        }
    }
}

proptest! {
    /// A set built from squares counts each square once and lists them in
    /// order: the piece counts above, and the evaluation, rely on it.
    #[test]
    fn bitboards_count_and_list_their_squares(numbers in proptest::collection::vec(1u8..=50, 0..60)) {
        let squares: BTreeSet<u8> = numbers.iter().copied().collect();
        let set = Bitboard::from_squares(numbers.iter().map(|&n| Square::<Ten>::new(n).unwrap()));
        prop_assert_eq!(set.count() as usize, squares.len());
        prop_assert_eq!(set.squares().map(|s| s.number()).collect::<Vec<_>>(), squares.into_iter().collect::<Vec<_>>());
    }
}

#[test]
fn the_empty_board_has_no_move() {
    let pos = Position::from_setup(Setup { turn: Some(Color::White), ..Setup::default() }).unwrap();
    assert!(pos.legal_moves().is_empty());
}
