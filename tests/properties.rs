//! Properties of the rules engine on random playouts from the start and
//! from random legal positions, in every rule set.

use dames::engine::bot::{self, Level};
use dames::engine::geometry::{Eight, Geometry, Ten, Twelve};
use dames::engine::{perft, Bitboard, Color, Game, Move, Position, Rules, Setup, Square};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use std::collections::{BTreeSet, HashSet};

/// Plays `choices` (each taken modulo the number of legal moves) from
/// `start`, returning every position reached.
fn playout<G: Geometry>(start: Position<G>, choices: &[u16]) -> Vec<Position<G>> {
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

/// A random legal position of international draughts.
fn random_position() -> impl Strategy<Value = Position> {
    random_position_with::<Ten>(Rules::INTERNATIONAL)
}

/// A random legal position under `rules`: pieces on random squares, men off
/// their promotion rows, no more pieces a side than the rules start with.
fn random_position_with<G: Geometry>(rules: Rules) -> impl Strategy<Value = Position<G>> {
    (proptest::collection::vec(0u8..6, G::SQUARES as usize), any::<bool>()).prop_map(move |(cells, black)| {
        let mut setup = Setup { turn: Some(if black { Color::Black } else { Color::White }), ..Setup::default() };
        for (square, cell) in Square::<G>::all().zip(cells) {
            match cell {
                1 if square.row() != 0 => setup.white = setup.white.with(square),
                2 if square.row() != G::SIZE - 1 => setup.black = setup.black.with(square),
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
        // Keep no more a side than a real game has.
        for side in [&mut setup.white, &mut setup.black] {
            while side.count() > rules.men_per_side() as u32 {
                let s = side.first().unwrap();
                *side = side.without(s);
                setup.kings = setup.kings.without(s);
            }
        }
        Position::from_setup_with(setup, rules).expect("built legal")
    })
}

fn check_invariants<G: Geometry>(pos: &Position<G>) -> Result<(), TestCaseError> {
    let rules = pos.rules();
    let moves = pos.legal_moves();
    // No move twice.
    let distinct: HashSet<_> = moves.iter().map(|m| (m.from, m.to, m.captured, m.crowned_in_passing)).collect();
    prop_assert_eq!(distinct.len(), moves.len());
    let captures: Vec<&Move<G>> = moves.iter().filter(|m| m.is_capture()).collect();
    if rules.majority {
        // Every capture takes the same, maximal, number of pieces.
        let counts: HashSet<u32> = captures.iter().map(|m| m.capture_count()).collect();
        prop_assert!(counts.len() <= 1, "capture counts {:?}", counts);
    } else {
        // Free choice: the majority rule would keep exactly the longest
        // captures, and none of them stops short: no capture's path is the
        // beginning of another's.
        let majority = pos.with_rules(Rules { majority: true, ..rules }).unwrap().legal_moves();
        let longest = captures.iter().map(|m| m.capture_count()).max().unwrap_or(0);
        let kept: HashSet<_> = captures.iter().filter(|m| m.capture_count() == longest).map(|m| **m).collect();
        let majority_captures: HashSet<_> = majority.iter().filter(|m| m.is_capture()).copied().collect();
        prop_assert_eq!(kept, majority_captures);
        for m in &captures {
            for other in captures.iter().filter(|o| o.from == m.from && o.capture_count() > m.capture_count()) {
                for short in pos.capture_paths(m) {
                    for long in pos.capture_paths(other) {
                        prop_assert!(
                            !long.starts_with(&short),
                            "{} stops short of {}",
                            m.long_form(),
                            other.long_form()
                        );
                    }
                }
            }
        }
    }
    if rules.mandatory && !captures.is_empty() {
        prop_assert_eq!(captures.len(), moves.len(), "a capture is due: nothing else is legal");
    }
    prop_assert_eq!(pos.count_legal_moves(), moves.len());
    // Perft counts its last ply without building the moves (by popcount
    // where it can): the same counts as the generator's.
    prop_assert_eq!(perft(pos, 1), moves.len() as u64);
    let grandchildren: usize = moves.iter().map(|m| pos.play_unchecked(m).legal_moves().len()).sum();
    prop_assert_eq!(perft(pos, 2), grandchildren as u64);
    // Deeper, perft plays quiet moves and single jumps from the bitboards:
    // the same children as the generator's moves played.
    let great_grandchildren: u64 = moves.iter().map(|m| perft(&pos.play_unchecked(m), 2)).sum();
    prop_assert_eq!(perft(pos, 3), great_grandchildren);
    prop_assert_eq!(pos.has_capture(), rules.mandatory && !captures.is_empty());
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
        prop_assert_eq!(Position::from_fen_with(&after.to_fen(), rules).ok(), Some(after));
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

/// The 8×8 rule sets and two custom ones (optional capture with flying
/// kings; free choice on 12×12).
fn variant_rules() -> [Rules; 5] {
    [
        Rules::ENGLISH,
        Rules::RUSSIAN,
        Rules::BRAZILIAN,
        Rules::parse("english,mandatory=0,flying=1,men_back=1").unwrap(),
        Rules::parse("russian,size=12").unwrap(),
    ]
}

fn check_variant(rules: Rules, cells_seed: u64, choices: &[u16]) -> Result<(), TestCaseError> {
    fn on<G: Geometry>(rules: Rules, seed: u64, choices: &[u16]) -> Result<(), TestCaseError> {
        for pos in playout(Position::<G>::initial(rules).unwrap(), choices) {
            check_invariants(&pos)?;
        }
        // And from a random position of the same rules.
        let mut runner = proptest::test_runner::TestRunner::new_with_rng(
            ProptestConfig::default(),
            proptest::test_runner::TestRng::from_seed(
                proptest::test_runner::RngAlgorithm::ChaCha,
                &[seed.to_le_bytes(), seed.rotate_left(17).to_le_bytes(), [7; 8], [9; 8]].concat(),
            ),
        );
        let pos = random_position_with::<G>(rules).new_tree(&mut runner).unwrap().current();
        for p in playout(pos, &choices[..choices.len().min(20)]) {
            check_invariants(&p)?;
        }
        Ok(())
    }
    match rules.size {
        8 => on::<Eight>(rules, cells_seed, choices),
        12 => on::<Twelve>(rules, cells_seed, choices),
        _ => on::<Ten>(rules, cells_seed, choices),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_rule_set_keeps_the_invariants(seed in any::<u64>(), choices in proptest::collection::vec(any::<u16>(), 0..100)) {
        for rules in variant_rules() {
            check_variant(rules, seed, &choices)?;
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
