//! Perft against `shared/data/perft/perft_reference.tsv` (the column that
//! counts a capture reached by two jump orders once, as the FMJD rules do).

mod common;

use dames::engine::{perft, perft_divide, Position};

struct Row {
    name: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn reference() -> Vec<Row> {
    let path = common::shared_data().join("perft/perft_reference.tsv");
    let text = std::fs::read_to_string(&path).expect("perft table");
    let mut rows: Vec<Row> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let fen = if cols[1] == "(same)" {
            rows.last().expect("(same) follows a row").fen.clone()
        } else {
            cols[1].to_string()
        };
        rows.push(Row {
            name: cols[0].to_string(),
            fen,
            depth: cols[2].parse().expect("depth"),
            nodes: cols[3].parse().expect("node count"),
        });
    }
    assert!(rows.len() >= 70, "the whole table was read");
    rows
}

/// Every row up to `max_nodes` leaves must match.
fn check_up_to(max_nodes: u64) -> usize {
    let mut checked = 0;
    for row in reference().iter().filter(|r| r.nodes <= max_nodes) {
        let pos = Position::from_fen(&row.fen).unwrap_or_else(|e| panic!("{}: {e}", row.name));
        assert_eq!(perft(&pos, row.depth), row.nodes, "{} depth {}", row.name, row.depth);
        checked += 1;
    }
    checked
}

#[test]
fn perft_matches_the_reference_table() {
    // Debug builds are slower: two million leaves keeps this under a minute
    // and still covers the start position to depth 7.
    let limit = if cfg!(debug_assertions) { 2_000_000 } else { 50_000_000 };
    let checked = check_up_to(limit);
    assert!(checked >= 45, "only {checked} rows checked");
    let start = Position::start();
    assert_eq!(perft(&start, 7), 1_049_442);
}

#[test]
fn divide_adds_up_to_perft() {
    let pos = Position::from_fen("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38").unwrap();
    let split = perft_divide(&pos, 6);
    assert_eq!(split.len(), 6);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 590);
}

/// The deep rows: start to depth 9, woldouby to 13 and everything up to two
/// billion leaves. `cargo test --release --test perft -- --ignored`.
#[test]
#[ignore]
fn perft_deep() {
    let start = Position::start();
    assert_eq!(perft(&start, 9), 41_022_423);
    let woldouby = Position::from_fen("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38").unwrap();
    assert_eq!(perft(&woldouby, 13), 9_872_645);
    check_up_to(2_000_000_000);
}
