//! English, Russian, Brazilian and custom rules against
//! `shared/data/perft/variants_start.tsv` (perft from each start position)
//! and `variants_rule_cases.tsv` (exact legal move lists of single
//! positions, each checking one rule).

mod common;

use dames::engine::any::AnyPosition;
use dames::engine::Rules;

/// The rules a data row names: a preset, or `custom:` international rules
/// with the flags listed.
fn rules_of(name: &str) -> Rules {
    let spec = match name.strip_prefix("custom:") {
        Some(flags) => format!("international,{flags}"),
        None => name.to_string(),
    };
    Rules::parse(&spec).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn rows(file: &str) -> Vec<Vec<String>> {
    let path = common::shared_data().join("perft").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Every start row up to `max_nodes` leaves; returns how many were checked.
fn check_start_rows(max_nodes: u64) -> usize {
    let mut checked = 0;
    for row in rows("variants_start.tsv") {
        let (variant, fen, depth, nodes) = (&row[0], &row[1], row[2].parse().unwrap(), row[3].parse::<u64>().unwrap());
        if nodes > max_nodes {
            continue;
        }
        let rules = rules_of(variant);
        let pos = AnyPosition::from_fen(fen, rules).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
        assert_eq!(pos, AnyPosition::initial(rules).unwrap(), "{variant}: the table starts from the rules' start");
        assert_eq!(pos.perft(depth), nodes, "{variant} depth {depth}");
        checked += 1;
    }
    checked
}

#[test]
fn perft_from_each_variants_start() {
    let limit = if cfg!(debug_assertions) { 1_000_000 } else { 50_000_000 };
    let checked = check_start_rows(limit);
    assert!(checked >= 24, "only {checked} rows checked");
}

/// Every row, English to depth 11 and Russian and Brazilian to 10:
/// `cargo test --release --test variants -- --ignored`.
#[test]
#[ignore = "deep: about 20 s in a release build"]
fn perft_from_each_variants_start_deep() {
    assert_eq!(check_start_rows(u64::MAX), rows("variants_start.tsv").len());
}

#[test]
fn every_rule_case_has_exactly_its_legal_moves() {
    let cases = rows("variants_rule_cases.tsv");
    assert!(cases.len() >= 43, "the whole table was read");
    for row in cases {
        let (variant, fen, expected, what) = (&row[0], &row[1], &row[2], &row[3]);
        let pos = AnyPosition::from_fen(fen, rules_of(variant)).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
        let mut expected: Vec<&str> = expected.split_whitespace().collect();
        expected.sort();
        let mut found = pos.legal_move_texts();
        found.sort();
        assert_eq!(found, expected, "{variant} {fen}: {what}");
    }
}

#[test]
fn divide_adds_up_in_every_variant() {
    for spec in ["english", "russian", "brazilian", "international,size=12", "english,mandatory=0,flying=1"] {
        let pos = AnyPosition::initial(Rules::parse(spec).unwrap()).unwrap();
        let divided: u64 = pos.perft_divide(4).iter().map(|(_, n)| n).sum();
        assert_eq!(divided, pos.perft(4), "{spec}");
    }
}
