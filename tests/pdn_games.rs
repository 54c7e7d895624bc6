//! The 1,138 real games under `shared/data/pdn/` replay legally, and every
//! position and move they reach survives a print-then-parse round trip.

mod common;

use dames::engine::pdn::{parse_pdn, replay};
use dames::engine::{move_to_text, parse_move, Position};

#[test]
fn every_shared_game_replays() {
    let mut games = 0;
    let mut plies = 0;
    let mut failures = Vec::new();
    for path in common::pdn_files() {
        for (i, pdn) in parse_pdn(&common::read_text(&path)).iter().enumerate() {
            games += 1;
            match replay(pdn) {
                Ok(game) => plies += game.moves().len(),
                Err(e) => failures.push(format!("{} game {}: {e}", path.display(), i + 1)),
            }
        }
    }
    assert!(failures.is_empty(), "{} games failed:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(games, 1138);
    assert_eq!(plies, 80_009);
}

#[test]
fn fen_and_move_text_round_trip_on_every_reached_position() {
    let mut positions = 0;
    let mut moves = 0;
    for path in common::pdn_files() {
        for pdn in parse_pdn(&common::read_text(&path)) {
            let game = replay(&pdn).expect("replays (checked by the other test)");
            for pos in game.positions() {
                let fen = pos.to_fen();
                assert_eq!(Position::from_fen_with(&fen, pos.rules()).as_ref(), Ok(&pos), "{fen}");
                positions += 1;
                for mv in pos.legal_moves() {
                    let text = move_to_text(&pos, &mv);
                    assert_eq!(parse_move(&pos, &text), Ok(mv), "{fen}: {text}");
                    moves += 1;
                }
            }
        }
    }
    assert!(positions > 80_000 && moves > positions, "{positions} positions, {moves} moves");
}

/// The three games whose bare capture matches two legal captures, settled by
/// the moves that follow (see shared/data/README.md).
#[test]
fn ambiguous_bare_captures_are_settled_by_what_follows() {
    let data = common::shared_data().join("pdn");
    for (file, game_number) in
        [("mobydam/babasy4.pdn", 49), ("wiegerw-pdn/schildpad.pdn", 3), ("wiegerw-pdn/schildpad.pdn", 7)]
    {
        let games = parse_pdn(&common::read_text(&data.join(file)));
        let pdn = &games[game_number - 1];
        let game = replay(pdn).unwrap_or_else(|e| panic!("{file} game {game_number}: {e}"));
        let positions = game.positions();
        let ambiguous = game
            .moves()
            .iter()
            .zip(&positions)
            .any(|(mv, pos)| pos.legal_moves().iter().filter(|m| m.from == mv.from && m.to == mv.to).count() > 1);
        assert!(ambiguous, "{file} game {game_number} has an ambiguous capture");
    }
}

/// Every shared game read as the analysis board reads it (the server's
/// `read_pdn`, behind `/api/analyse/importer`): the start and the moves
/// `replay_any` gives, and the board's PDN export of it read back the same.
#[test]
fn every_shared_game_imports_on_the_analysis_board_and_its_export_reads_back() {
    use dames::engine::any::{AnyGame, AnyPosition};
    use dames::engine::pdn::replay_any;
    use dames::engine::Rules;
    use dames::server::analysis_board::read_pdn;
    let mut games = 0;
    for path in common::pdn_files() {
        let text = common::read_text(&path);
        for (i, pdn) in parse_pdn(&text).iter().enumerate() {
            let imported = read_pdn(&text, i).unwrap_or_else(|e| panic!("{} game {}: {e}", path.display(), i + 1));
            let replayed = replay_any(pdn, Rules::INTERNATIONAL).expect("replays (checked above)");
            assert_eq!(imported.start_fen, replayed.start().to_fen());
            let long: Vec<String> = replayed.played().into_iter().map(|(_, m)| m.long).collect();
            assert_eq!(imported.moves, long, "{} game {}", path.display(), i + 1);

            let mut board = AnyGame::new(AnyPosition::from_fen(&imported.start_fen, imported.rules).unwrap());
            for mv in &imported.moves {
                board.play_long(mv).unwrap();
            }
            let export = board.pdn(&[("Event", "Échiquier d'analyse")], "*");
            let again = read_pdn(&export, 0).unwrap_or_else(|e| panic!("{export}: {e}"));
            assert_eq!(
                (again.start_fen, again.moves, again.rules),
                (imported.start_fen, imported.moves, imported.rules)
            );
            games += 1;
        }
    }
    assert_eq!(games, 1138);
}
