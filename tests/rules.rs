//! Each FMJD rule on a position built for it: the 23 cases of
//! `shared/data/perft/movegen_rule_cases.tsv` must give exactly the listed
//! legal moves, captured squares included.

mod common;

use dames::engine::Position;
use std::collections::BTreeSet;

/// Reads the fourth column: `28x19{23}` items, or a list of captures that
/// ends with `(all {28,29,38,39})` giving one captured set for all.
fn expected_moves(column: &str) -> BTreeSet<String> {
    let (list, shared_capture) = match column.split_once("(all ") {
        Some((list, rest)) => (list, Some(rest.trim_end_matches(')').trim().to_string())),
        None => (column, None),
    };
    list.split_whitespace()
        .map(|m| match (&shared_capture, m.contains('x')) {
            (Some(captured), true) => format!("{m}{captured}"),
            _ => m.to_string(),
        })
        .collect()
}

#[test]
fn every_rule_case_gives_exactly_its_moves() {
    let path = common::shared_data().join("perft/movegen_rule_cases.tsv");
    let text = std::fs::read_to_string(&path).expect("rule cases");
    let mut cases = 0;
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (name, fen, expected) = (cols[0], cols[1], expected_moves(cols[3]));
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.long_form().to_string()).collect();
        assert_eq!(got, expected, "{name} ({fen})");
        assert_eq!(pos.count_legal_moves(), expected.len(), "{name}: count");
        cases += 1;
    }
    assert_eq!(cases, 23, "all 23 rule cases read");
}

fn moves(fen: &str) -> BTreeSet<String> {
    Position::from_fen(fen).unwrap().legal_moves().iter().map(|m| m.long_form().to_string()).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn men_move_forward_only_but_capture_backwards() {
    assert_eq!(moves("W:W33"), set(&["33-28", "33-29"]));
    assert_eq!(moves("W:W33:B38"), set(&["33x42{38}"]));
}

#[test]
fn capture_is_mandatory_even_when_it_loses() {
    // White would rather play 46-41, but 33 must take 28.
    assert_eq!(moves("W:W33,46:B28,12"), set(&["33x22{28}"]));
}

#[test]
fn a_man_passing_the_far_row_stays_a_man() {
    // 15x13 passes 4 on the far row: it ends on 13 as a man.
    let pos = Position::from_fen("W:W15:B9,10").unwrap();
    let mv = pos.legal_moves()[0];
    let after = pos.play(&mv).unwrap();
    assert!(!after.kings().contains(mv.to));
}

#[test]
fn a_king_lands_anywhere_beyond_unless_it_must_go_on() {
    // Alone, the king may stop on any of 19, 14, 10, 5 behind 23.
    assert_eq!(moves("W:WK46:B23").len(), 4);
    // With a second piece on 9, only landing on 14 lets it go on (over 9 to
    // 3), and the majority rule makes it.
    assert_eq!(moves("W:WK46:B23,9"), set(&["46x3{9,23}"]));
}

#[test]
fn a_piece_jumped_once_blocks_the_way_back() {
    // NoPassingJumpRemoval from the shared cases, read the other way: the
    // king cannot take 38 twice, so 41x43 ends there with four pieces.
    assert_eq!(moves("W:WK41,49:B9,10,12,19,38"), set(&["41x43{9,12,19,38}"]));
}
