//! Analysis of whole games from the shared data, read in place: an English
//! game (Tinsley's) and international masters' games, end to end, at a
//! small budget: the summaries match the plies, no loss is negative, two
//! runs agree to the last figure, and few of the masters' moves are called
//! blunders.

mod common;

use dames::engine::analysis::{analyse, Analysis, Men, NodeBudget, SideSummary, Verdict, EVAL_BOUND};
use dames::engine::any::AnyGame;
use dames::engine::geometry::{Eight, Ten};
use dames::engine::pdn::{parse_pdn, replay_with};
use dames::engine::{Color, Rules};

/// A debug build searches about a hundred thousand nodes a second: enough
/// for the short tactics that decide the verdicts, in a few seconds a game.
fn budget() -> NodeBudget {
    NodeBudget::new(10_000).unwrap()
}

fn english_game(index: usize) -> AnyGame {
    let text = common::read_text(&common::shared_data().join("pdn-english/tinsley-1.pdn"));
    // CheckerBoard writes no GameType: the file is English by its source.
    AnyGame::Eight(replay_with::<Eight>(&parse_pdn(&text)[index], Rules::ENGLISH).unwrap())
}

fn international_game(file: &str, index: usize) -> AnyGame {
    let text = common::read_text(&common::shared_data().join("pdn").join(file));
    let pdn = &parse_pdn(&text)[index];
    AnyGame::Ten(replay_with::<Ten>(pdn, pdn.rules(Rules::INTERNATIONAL).unwrap()).unwrap())
}

/// What holds of every analysis: one ply a move, in order, with its
/// number; losses never negative and the verdicts theirs; evaluations
/// within the bound; each side's summary counting its own plies.
fn check_consistent(game: &AnyGame, analysis: &Analysis) {
    assert_eq!(analysis.plies.len(), game.ply_count());
    assert_eq!(analysis.evals().len(), game.ply_count() + 1);
    let notation = game.notation();
    for (i, ply) in analysis.plies.iter().enumerate() {
        assert_eq!(ply.played.text, notation[i], "ply {i}");
        assert!(ply.loss >= Men::ZERO, "ply {i}: {ply:?}");
        assert!(ply.eval.men.hundredths().abs() <= EVAL_BOUND.hundredths(), "ply {i}: {ply:?}");
        let expected = if ply.forced { None } else { Verdict::of(ply.loss) };
        assert_eq!(ply.verdict, expected, "ply {i}");
        if ply.forced {
            assert_eq!((ply.loss, ply.best.long.as_str()), (Men::ZERO, ply.played.long.as_str()), "ply {i}");
        }
        if ply.played.long == ply.best.long {
            assert_eq!(ply.loss, Men::ZERO, "the engine's own move loses nothing: ply {i}");
        }
        assert_eq!(ply.line.first(), Some(&ply.best.text), "ply {i}");
    }
    for side in [Color::White, Color::Black] {
        let mine: Vec<_> = analysis.plies.iter().filter(|p| p.mover == side).collect();
        let judged: Vec<_> = mine.iter().filter(|p| !p.forced).collect();
        let count = |v| judged.iter().filter(|p| p.verdict == Some(v)).count() as u32;
        let total: i32 = judged.iter().map(|p| p.loss.hundredths()).sum();
        let summary = analysis.summary(side);
        let expected = SideSummary {
            moves: mine.len() as u32,
            judged: judged.len() as u32,
            inaccuracies: count(Verdict::Inaccuracy),
            mistakes: count(Verdict::Mistake),
            blunders: count(Verdict::Blunder),
            average_loss: summary.average_loss,
        };
        assert_eq!(*summary, expected, "{side}");
        let average = total as f64 / judged.len().max(1) as f64;
        assert!((summary.average_loss.hundredths() as f64 - average).abs() <= 0.5, "{side}: {summary:?}");
    }
}

#[test]
fn an_english_game_is_analysed_end_to_end_the_same_every_time() {
    let game = english_game(0);
    let analysis = analyse(&game, budget(), |_| {}).unwrap();
    check_consistent(&game, &analysis);
    assert_eq!(analysis.rules, Rules { repetition: false, ..Rules::ENGLISH });
    let first = &analysis.plies[0];
    assert_eq!((first.number, first.mover, first.played.text.as_str()), (1, Color::Black, "11-15"));
    assert_eq!(analysis.plies[1].number, 1, "White's reply shares move 1");
    // A draw between Tinsley and a master: no blunder from either side.
    let blunders = analysis.white.blunders + analysis.black.blunders;
    assert_eq!(blunders, 0, "{:?} {:?}", analysis.white, analysis.black);
    // The same figures again, and in another thread at once.
    let again = std::thread::spawn(move || analyse(&english_game(0), budget(), |_| {}).unwrap());
    assert_eq!(analyse(&game, budget(), |_| {}).unwrap(), analysis);
    assert_eq!(again.join().unwrap(), analysis);
}

#[test]
fn masters_moves_are_seldom_called_blunders() {
    let games = [international_game("wiegerw-pdn/wk2003.pdn", 0), international_game("mobydam/babasy1.pdn", 0)];
    let (mut judged, mut blunders, mut mistakes) = (0, 0, 0);
    for game in &games {
        let analysis = analyse(game, budget(), |_| {}).unwrap();
        check_consistent(game, &analysis);
        for side in [&analysis.white, &analysis.black] {
            judged += side.judged;
            blunders += side.blunders;
            mistakes += side.mistakes;
        }
    }
    assert!(judged >= 60, "{judged} moves judged");
    // Masters blunder now and then (and a shallow search misjudges some
    // sacrifices): at most one move in thirty.
    assert!(blunders * 30 <= judged, "{blunders} blunders in {judged} moves");
    assert!((blunders + mistakes) * 10 <= judged, "{blunders} blunders and {mistakes} mistakes in {judged} moves");
}
