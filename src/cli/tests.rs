//! The command line's tests: each calls `dames …` as the binary would
//! (clap's parse, then [`run`]) and checks the exit status, stdout and
//! stderr.

use super::{run, Cli};
use crate::engine::eval::patterns::{Phase, Weights};
use crate::engine::pdn::{parse_pdn, replay};
use clap::Parser;
use std::io::Write;

/// Runs `dames args…`: the exit status (`None`: serve the site), stdout and
/// stderr. A command line clap refuses is status 2 with clap's message on
/// stderr, in one line: its first paragraph, without the usage and the
/// pointer to `--help` that follow it.
fn call(args: &[&str]) -> (Option<i32>, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = match Cli::try_parse_from(std::iter::once("dames").chain(args.iter().copied())) {
        Ok(cli) => run(cli, &mut out, &mut err),
        Err(e) if e.use_stderr() => {
            writeln!(err, "{}", message_line(&e)).unwrap();
            Some(e.exit_code())
        }
        // --help: the help on stdout, status 0.
        Err(e) => {
            write!(out, "{e}").unwrap();
            Some(e.exit_code())
        }
    };
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

/// Clap's message for `e` in one line.
fn message_line(e: &clap::Error) -> String {
    let text = e.to_string();
    let message = text.split("\n\n").next().unwrap_or_default();
    message.lines().map(str::trim).collect::<Vec<_>>().join(" ")
}

#[test]
fn bestmove_takes_the_ladders_steps() {
    for step in ["1", "4"] {
        let (code, out, err) = call(&["bestmove", "W:W28,40:B22,13", "--level", step]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.starts_with("bestmove 28x17"), "the capture at step {step}: {out}");
    }
    let (code, _, err) = call(&["bestmove", "start", "--level", "9"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("1 to 8"), "{err}");
}

#[test]
fn no_subcommand_means_serve() {
    assert_eq!(call(&[]).0, None);
    assert_eq!(call(&["serve"]).0, None);
}

#[test]
fn perft_prints_one_line_per_depth() {
    let (code, out, _) = call(&["perft", "start", "3"]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[2].starts_with("depth 3 nodes 658 time_ms "), "{}", lines[2]);
    let (code, out, _) = call(&["perft", "W:W32:B28,29,38,39", "1", "--divide"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().next(), Some("32x32{28,29,38,39} 1"));
}

#[test]
fn moves_are_sorted_and_written_long() {
    let (code, out, _) = call(&["moves", "W:WK47:B9,12,33"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, "47x17{9,12,33}\n47x21{9,12,33}\n47x26{9,12,33}\n");
}

#[test]
fn rules_choose_the_board_and_the_moves() {
    let (code, out, _) = call(&["perft", "start", "3", "--rules", "english"]);
    assert_eq!(code, Some(0));
    assert!(out.lines().nth(2).unwrap().starts_with("depth 3 nodes 302 "), "{out}");
    let (code, out, _) = call(&["moves", "W:W22:B18", "--rules", "english,mandatory=0"]);
    assert_eq!((code, out.as_str()), (Some(0), "22x15{18}\n22-17\n"), "sorted by end square");
    let (code, out, _) = call(&["moves", "W:W22:B18", "--rules", "english"]);
    assert_eq!((code, out.as_str()), (Some(0), "22x15{18}\n"));
    let (code, _, err) = call(&["moves", "start", "--rules", "english,kings=2"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("\"kings\"") && err.lines().count() == 1, "{err}");
}

#[test]
fn bad_input_is_one_line_and_status_two() {
    for args in [
        &["perft", "start", "0"][..],
        &["perft", "start", "99"],
        &["perft", "start", "x"],
        &["perft", "W:W99", "2"],
        &["perft", "start"],
        &["moves", "nonsense"],
        &["moves", "start", "--rules"],
        &["moves", "start", "--rules", "checkers"],
        &["perft", "W:W33:B1", "1", "--rules", "english"],
        &["frobnicate"],
        &["replay"],
        &["replay", "/nonexistent/file.pdn"],
        &["bestmove", "start", "--eval", "neural"],
        &["selfplay", "--white", "1", "--black", "1", "--games", "2", "--white-eval", "x"],
        &["selfplay", "--white", "1", "--black", "1", "--games", "2", "--threads", "0"],
        &["selfplay", "--white", "1", "--black", "1", "--games", "2", "--black-nodes", "0"],
        &["selfplay", "--white", "1", "--black", "1", "--games", "2", "--table-bits", "30"],
        &["selfplay", "--white", "fort", "--black", "fort", "--games", "2", "--black-probcut", "yes"],
        &["bestmove", "start", "--probcut", "2"],
        &["bestmove", "start", "--pruning", "on"],
        &["selfplay", "--white", "fort", "--black", "fort", "--games", "2", "--white-pruning", "2"],
        &["agreement", "x.pdn", "--pruning", "-1"],
        &["bestmove", "start", "--tables", "yes"],
        &["selfplay", "--white", "fort", "--black", "fort", "--games", "2", "--black-tables", "on"],
        &["tune"],
        &["tune", "learn"],
        &["tune", "fit", "--out", "/tmp/x"],
        &["tune", "fit", "--data", "/nonexistent", "--out", "/tmp/x"],
        &["tune", "generate", "--games", "0", "--out", "/tmp/x"],
        &["tune", "generate", "--games", "1", "--out", "/tmp/x", "--pruning", "2"],
        &["tune", "generate", "--games", "1", "--out", "/tmp/x", "--weights", "/nonexistent"],
        &["tune", "fit", "--data", "/nonexistent", "--out", "/tmp/x", "--phases", "3"],
        &["tune", "fit", "--data", "/nonexistent", "--out", "/tmp/x", "--lambda", "1.5"],
        &["tune", "fit", "--data", "/nonexistent", "--out", "/tmp/x", "--lambda", "NaN"],
        &["tune", "fit", "--data", "/nonexistent", "--out", "/tmp/x", "--td", "-0.1"],
        &["bestmove", "start", "--weights", "/nonexistent"],
        &["bestmove", "start", "--eval", "classic", "--weights", "/nonexistent"],
        &["selfplay", "--white", "1", "--black", "1", "--games", "2", "--black-weights", "Cargo.toml"],
        &["agreement"],
        &["endgame", "start"],
        &["endgame", "W:WK1:BK4", "--rules", "international,size=12"],
        &["endgame", "W:WK1:BK4", "--rules", "english,flying=1,men_back=0"],
        &["endgame", "W:WK1:BK4", "W:WK1:BK5"],
        &["endgame", "W:WK1:BK1"],
        &["endgame", "W:WK29:B", "--rules", "english"],
        &["endgame", "W:W31,32:B1,2"],
        &["match", "--white", "1", "--games", "2"],
        &["match", "--white", "1", "--white-engine", "scan hub", "--black", "1", "--games", "2"],
        &["match", "--white", "1", "--black", "1", "--games", "2", "--white-time", "100"],
        &["match", "--white", "1", "--black", "1", "--games", "2", "--black-protocol", "hub2"],
        &["match", "--white", "1", "--black", "1", "--games", "2", "--from", "3"],
        &["match", "--white", "1", "--black", "1", "--games", "2", "--opening-plies", "4"],
        &["openings", "--plies", "4"],
        &["openings", "--except", "/nonexistent"],
        &["openings", "--except", "Cargo.toml"],
        &["match", "--white", "1", "--black", "1", "--games", "2", "--openings", "/nonexistent"],
        &["match", "--white", "1", "--black", "1", "--games", "2", "--openings", "Cargo.toml"],
        &["match", "--white", "1", "--black-engine", "/nonexistent/scan hub", "--games", "2"],
        &["match", "--white", "1", "--black-engine", "scan hub", "--black-nodes", "1000", "--games", "2"],
        &["match", "--white", "1", "--black-engine", "scan hub", "--black-eval", "learned", "--games", "2"],
        &[
            "match",
            "--white",
            "1",
            "--black-engine",
            "scan hub",
            "--black-time",
            "5",
            "--black-depth",
            "5",
            "--games",
            "2",
        ],
        &["match", "--white", "1", "--black-engine", "scan hub", "--black-protocol", "hub3", "--games", "2"],
        &["match", "--white", "1", "--black-engine", "scan hub", "--black-set", "book", "--games", "2"],
    ] {
        let (code, out, err) = call(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn endgame_gives_a_positions_verdict_or_each_tables_counts() {
    for (fen, rules, verdict) in [
        ("W:WK46:BK28", "international", "win in 1 plies"),
        // A king on 46 may only go up the long diagonal: with the
        // other king on it, it must step into a capture.
        ("B:WK46:BK28", "international", "win in 3 plies"),
        ("W:WK1,K10:BK46", "international", "win in 3 plies"),
        ("B:WK1,K10:BK46", "international", "draw"),
        ("W:WK1,K5:BK32", "english", "win in 31 plies"),
        ("B:W8,11:BK4", "english", "lost: no move"),
    ] {
        let (code, out, err) = call(&["endgame", fen, "--rules", rules]);
        assert_eq!((code, out.trim()), (Some(0), verdict), "{fen} {rules}: {err}");
    }
    // The search judges by the tables when asked: a win in 31 plies,
    // far beyond 2,000 nodes, scored as such (200 men less 30 plies
    // after the move).
    let position = ["bestmove", "W:W30,12:BK1", "--rules", "english", "--nodes", "2000", "--tables"];
    let (code, out, _) = call(&[&position[..], &["1"]].concat());
    assert_eq!(code, Some(0));
    assert!(out.contains(" score 19970 "), "{out}");
    let (_, out, _) = call(&[&position[..], &["0"]].concat());
    assert!(!out.contains(" score 19970 "), "{out}");
    let (code, out, _) = call(&["endgame", "--rules", "russian"]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 17, "{out}");
    assert!(lines[0].starts_with("K-K    positions    1984 won"), "{}", lines[0]);
    assert!(lines[16].starts_with("computed and counted in "), "{}", lines[16]);
}

#[test]
fn selfplay_reports_each_game_and_the_score_with_its_interval() {
    let args = ["selfplay", "--white", "2", "--black", "1", "--games", "4", "--threads", "2", "--black-nodes", "500"];
    let (code, out, _) = call(&args);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    for (i, line) in lines[..4].iter().enumerate() {
        assert!(line.starts_with(&format!("game {} 2 as ", i + 1)), "{line}");
    }
    assert!(lines[4].starts_with("2 vs 1: ") && lines[4].contains("95 % interval"), "{}", lines[4]);
    // The same games whatever the threads.
    let (_, again, _) = call(&["selfplay", "--white", "2", "--black", "1", "--games", "4", "--black-nodes", "500"]);
    assert_eq!(out, again);
    // A match resumed at its third game plays the same last two games.
    let (code, rest, _) =
        call(&["selfplay", "--white", "2", "--black", "1", "--games", "4", "--from", "3", "--black-nodes", "500"]);
    assert_eq!(code, Some(0));
    let rest: Vec<&str> = rest.lines().collect();
    assert_eq!((rest.len(), &rest[..2]), (3, &lines[2..4]), "{rest:?}");
    assert!(rest[2].starts_with("2 vs 1: "), "{}", rest[2]);
    for from in ["0", "5"] {
        let (code, _, err) = call(&["selfplay", "--white", "2", "--black", "1", "--games", "4", "--from", from]);
        assert_eq!(code, Some(2), "--from {from}: {err}");
    }
}

#[test]
fn selfplay_writes_its_games_as_pdn_that_replays_to_the_same_ends() {
    let dir = std::env::temp_dir().join(format!("dames-selfplay-pdn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pdn");
    let path = file.to_str().unwrap();
    let args = ["selfplay", "--white", "2", "--black", "1", "--games", "3", "--black-nodes", "500", "--pdn", path];
    let (code, out, _) = call(&args);
    assert_eq!(code, Some(0), "{out}");
    let games = parse_pdn(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(games.len(), 3);
    for (i, (pdn, line)) in games.iter().zip(out.lines()).enumerate() {
        assert_eq!(pdn.tag("Round"), Some((i + 1).to_string().as_str()));
        // The first player (level 2) has White in even games.
        let level_two = if i % 2 == 0 { "White" } else { "Black" };
        assert!(pdn.tag(level_two).unwrap().starts_with("2 (classic, "), "{:?}", pdn.tag(level_two));
        let game = replay(pdn).unwrap();
        let outcome = game.outcome().expect("a finished game");
        assert_eq!(pdn.tag("Result"), Some(outcome.pdn_result()));
        assert!(line.ends_with(&format!("in {} plies ({outcome})", game.moves().len())), "{line}");
    }
    let (code, _, err) = call(&["selfplay", "--white", "1", "--black", "1", "--games", "1", "--pdn", "/"]);
    assert_eq!(code, Some(2), "a file that cannot be written is a usage error: {err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bestmove_takes_either_evaluation() {
    for eval in ["classic", "learned"] {
        let (code, out, _) = call(&["bestmove", "start", "--nodes", "20000", "--eval", eval]);
        assert_eq!(code, Some(0));
        assert!(out.starts_with("bestmove "), "{out}");
    }
}

#[test]
fn tune_makes_weights_that_the_searches_play() {
    let dir = std::env::temp_dir().join(format!("dames-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (positions, phased, shipped) = (file("positions.bin"), file("phased.bin"), file("shipped.bin"));
    let generate = ["tune", "generate", "--games", "3", "--nodes", "800", "--pruning", "1", "--out", &positions];
    let (code, out, err) = call(&generate);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(" positions from 3 games "), "{out}");
    let fit = ["tune", "fit", "--data", &positions, "--out", &phased, "--epochs", "25", "--lambda", "0.5"];
    let (code, out, err) = call(&[&fit[..], &["--phases", "2"]].concat());
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("validation loss"), "{out}");
    // (Whether it has two phases depends on the epochs that beat the
    // classic weights on so few games: the fit's own tests check that.)
    // Blended by the pieces, as the shipped weights, unless told the rows.
    assert_eq!(Weights::read(&std::fs::read(&phased).unwrap()).unwrap().phase, Phase::Pieces);
    let rows = file("rows.bin");
    let fit_by_rows = [
        "tune", "fit", "--data", &positions, "--out", &rows, "--epochs", "25", "--phase", "rows", "--lambda", "1",
        "--td", "0.9",
    ];
    let (code, _, err) = call(&fit_by_rows);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(Weights::read(&std::fs::read(&rows).unwrap()).unwrap().phase, Phase::RowsToGo);
    // The fitted file plays, for either side of a match.
    let (code, out, err) = call(&["bestmove", "start", "--nodes", "3000", "--weights", &phased]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("bestmove "), "{out}");
    let match_ = ["selfplay", "--white", "2", "--black", "2", "--games", "1", "--white-weights", &phased];
    let (code, _, err) = call(&match_);
    assert_eq!(code, Some(0), "{err}");
    // The shipped weights from a file search exactly as the built-in
    // ones: the same move, score, depth and nodes.
    std::fs::write(&shipped, Weights::shipped().encode()).unwrap();
    let position = "W:W27,28,32,33,37,38,39,42,43,48:B3,7,8,12,13,16,17,18,19,23";
    let (_, from_file, _) = call(&["bestmove", position, "--nodes", "30000", "--weights", &shipped]);
    let (_, built_in, _) = call(&["bestmove", position, "--nodes", "30000", "--eval", "learned"]);
    let (_, classic, _) = call(&["bestmove", position, "--nodes", "30000", "--eval", "classic"]);
    assert!(from_file.starts_with("bestmove "), "{from_file}");
    assert_eq!(from_file, built_in);
    assert_ne!(from_file, classic, "the learned weights judge otherwise");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn search_switches_can_be_turned_on_or_off_for_either_side() {
    // On or off, a legal move comes out.
    for (level, switch) in [("fort", "1"), ("6", "0"), ("6", "1"), ("fort", "0")] {
        for option in ["--probcut", "--pruning"] {
            let args = ["bestmove", "start", "--level", level, "--nodes", "20000", option, switch];
            let (code, out, err) = call(&args);
            assert_eq!(code, Some(0), "{err}");
            assert!(out.starts_with("bestmove "), "{out}");
        }
    }
    let dir = std::env::temp_dir().join(format!("dames-selfplay-probcut-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pdn");
    let path = file.to_str().unwrap();
    let args = [
        "selfplay",
        "--white",
        "2",
        "--black",
        "1",
        "--games",
        "2",
        "--black-nodes",
        "500",
        "--white-probcut",
        "1",
        "--black-pruning",
        "1",
        "--tables",
        "1",
        "--white-tables",
        "0",
        "--pdn",
        path,
    ];
    assert_eq!(call(&args).0, Some(0));
    let games = parse_pdn(&std::fs::read_to_string(&file).unwrap());
    assert!(games[0].tag("White").unwrap().ends_with(", probcut)"), "{:?}", games[0].tag("White"));
    assert!(!games[0].tag("Black").unwrap().contains("probcut"), "{:?}", games[0].tag("Black"));
    assert!(games[0].tag("Black").unwrap().contains(", pruning"), "{:?}", games[0].tag("Black"));
    assert!(!games[0].tag("White").unwrap().contains("pruning"), "{:?}", games[0].tag("White"));
    // The side's own switch before the match's.
    assert!(!games[0].tag("White").unwrap().contains("tables"), "{:?}", games[0].tag("White"));
    assert!(games[0].tag("Black").unwrap().contains(", endgame tables"), "{:?}", games[0].tag("Black"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn replay_reports_each_game_and_fails_on_a_bad_one() {
    let dir = std::env::temp_dir().join(format!("dames-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.pdn");
    std::fs::write(&file, "[White \"a\"]\n1. 32-28 18-23 *\n[White \"b\"]\n1. 32-28 18-24 *\n").unwrap();
    let (code, out, _) = call(&["replay", file.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, Some(1));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "ok 2");
    assert!(lines[1].starts_with("error ") && lines[1].contains(":2 2: "), "{}", lines[1]);
    assert_eq!(lines[2], "games 2 ok 1 failed 1");
}

#[test]
fn the_command_line_is_consistent() {
    use clap::CommandFactory;
    Cli::command().debug_assert();
}

#[test]
fn every_subcommand_has_its_help() {
    use clap::CommandFactory;
    let (code, top, _) = call(&["--help"]);
    assert_eq!(code, Some(0));
    // Each subcommand, and each of its own (tune generate, tune fit).
    let command = Cli::command();
    let mut paths = Vec::new();
    for sub in command.get_subcommands() {
        assert!(top.contains(sub.get_name()), "dames --help names {}: {top}", sub.get_name());
        paths.push((vec![sub.get_name()], sub));
        paths.extend(sub.get_subcommands().map(|nested| (vec![sub.get_name(), nested.get_name()], nested)));
    }
    for (path, sub) in paths {
        let args: Vec<&str> = path.iter().copied().chain(["--help"]).collect();
        let (code, out, err) = call(&args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(out.contains(&format!("Usage: dames {}", path.join(" "))), "{args:?}: {out}");
        for long in sub.get_arguments().filter_map(|a| a.get_long()) {
            assert!(out.contains(&format!("--{long}")), "{args:?} explains --{long}");
        }
    }
    let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
    for expected in
        ["perft", "moves", "replay", "bestmove", "hub", "selfplay", "match", "tune", "endgame", "bench", "agreement"]
    {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }
}

#[test]
fn a_bad_option_is_named_with_status_two() {
    for (args, named) in [
        (&["selfplay", "--white", "1", "--black", "1", "--games", "2", "--threads", "0"][..], "--threads"),
        (&["perft", "start", "3", "--depht", "2"], "--depht"),
        (&["bestmove", "start", "--nodes", "many"], "--nodes"),
        (&["moves", "start", "--rules", "checkers"], "--rules"),
        (&["tune", "fit", "--data", "x", "--out", "y", "--phases", "3"], "--phases"),
        (&["tune", "fit", "--data", "x", "--out", "y", "--phase", "moves"], "--phase"),
    ] {
        let (code, _, err) = call(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains(named), "{args:?}: {err}");
    }
}

/// The lines of a match's output with the milliseconds left out, which
/// vary from run to run.
fn without_times(out: &str) -> Vec<String> {
    out.lines()
        .map(|line| line.split("; ").filter(|part| !part.contains(" ms a move")).collect::<Vec<_>>().join("; "))
        .filter(|line| !line.contains(" ms a move over "))
        .collect()
}

#[test]
fn match_between_two_levels_reports_each_game_the_score_and_each_sides_figures() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "# two openings\n32-28 18-23\n33-28 17-22\n").unwrap();
    let openings = openings.to_str().unwrap();
    let args =
        ["match", "--white", "2", "--black", "1", "--black-nodes", "500", "--games", "4", "--openings", openings];
    let (code, out, err) = call(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    assert!(lines[0].starts_with("2 (classic, ") && lines[0].contains(" vs 1 (classic, 500 nodes, "), "{}", lines[0]);
    assert!(lines[0].contains("games 1 to 4, 2 openings (from "), "{}", lines[0]);
    for (i, line) in lines[1..5].iter().enumerate() {
        let colour = ["white", "black"][i % 2];
        let opening = ["32-28 18-23", "33-28 17-22"][i / 2];
        assert!(line.starts_with(&format!("game {} 2 as {colour}: ", i + 1)), "{line}");
        assert!(line.contains(&format!("; opening {opening}; ")) && line.ends_with(" ms a move"), "{line}");
    }
    assert!(lines[5].starts_with("2 vs 1: ") && lines[5].contains("95 % interval"), "{}", lines[5]);
    assert!(lines[6].starts_with("2: ") && lines[6].contains(" ms a move over "), "{}", lines[6]);
    assert!(lines[7].ends_with(", 0 restarts, 0 illegal moves, 0 moves not given"), "{}", lines[7]);
    // The same games whatever the threads.
    let (_, again, _) = call(&args);
    assert_eq!(without_times(&out), without_times(&again));
}

#[test]
fn openings_lists_what_match_plays_in_its_order_less_a_files() {
    let (code, out, err) = call(&["openings", "--seed", "3"]);
    assert_eq!(code, Some(0), "{err}");
    let listed: Vec<&str> = out.lines().collect();
    assert!(listed.len() > 10 && listed.len() < 81, "{out}");
    assert!(listed.iter().all(|line| line.split(' ').count() == 2), "{out}");
    // dames match --seed 3 plays them in this order, each with both colours.
    let args = ["match", "--white", "1", "--black", "1", "--nodes", "50", "--games", "6", "--seed", "3"];
    let (code, played, err) = call(&args);
    assert_eq!(code, Some(0), "{err}");
    for (i, line) in played.lines().skip(1).take(6).enumerate() {
        assert!(line.contains(&format!("; opening {}; ", listed[i / 2])), "{line}");
    }
    // Less the openings of a file, however it writes them.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("test-set.txt");
    std::fs::write(&file, format!("# kept apart\n1. {}\n\n{}\n", listed[0], listed[2])).unwrap();
    let (code, rest, err) = call(&["openings", "--seed", "3", "--except", file.to_str().unwrap(), "--threads", "2"]);
    assert_eq!(code, Some(0), "{err}");
    let expected: Vec<&str> = listed.iter().enumerate().filter(|(i, _)| *i != 0 && *i != 2).map(|(_, l)| *l).collect();
    assert_eq!(rest.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn match_against_an_engine_in_another_process_writes_its_games_and_counts_its_faults() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.pdn");
    let path = file.to_str().unwrap();
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "32-28 18-23\n").unwrap();
    let openings = openings.to_str().unwrap();
    let engine = crate::matches::tests::fake_engine_command("hub1", "none", None).join(" ");
    let args = ["match", "--white", "1", "--black-engine", &engine, "--black-time", "5", "--games", "2"];
    let (code, out, err) = call(&[&args[..], &["--openings", openings, "--pdn", path]].concat());
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("1 (classic, ") && out.contains(" vs Fake One (5 ms a move): games 1 to 2"), "{out}");
    assert!(out.contains("\n1 vs Fake One: "), "{out}");
    assert!(out.contains("\nFake One: ") && out.contains(", 0 restarts, 0 illegal moves"), "{out}");
    let games = parse_pdn(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(games.len(), 2);
    for (i, pdn) in games.iter().enumerate() {
        let (ours, theirs) = if i == 0 { ("White", "Black") } else { ("Black", "White") };
        assert!(pdn.tag(ours).unwrap().starts_with("1 (classic, "), "{:?}", pdn.tags);
        assert_eq!(pdn.tag(theirs), Some("Fake One (5 ms a move)"));
        assert_eq!(pdn.tag("Opening"), Some("32-28 18-23"));
        let game = replay(pdn).unwrap();
        assert_eq!(pdn.tag("Result"), game.outcome().map(|o| o.pdn_result()));
    }
    // An engine that answers nonsense loses each game, and says so.
    let engine = crate::matches::tests::fake_engine_command("hub1", "illegal", None).join(" ");
    let args =
        ["match", "--white", "1", "--black-engine", &engine, "--games", "2", "--openings", openings, "--pdn", path];
    let (code, out, err) = call(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("\n1 vs Fake One: 2 wins, 0 draws, 0 losses"), "{out}");
    assert!(out.contains("forfeit: illegal move \"1-2\" by Fake One"), "{out}");
    assert!(out.contains("\nFake One: ") && out.contains(", 0 restarts, 2 illegal moves, 0 moves not given"), "{out}");
    let games = parse_pdn(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(games[1].tag("Termination"), Some("illegal move '1-2' by Fake One"));
    assert_eq!(games[1].tag("Result"), Some("0-2"), "Fake One had White in the second game");
}

#[test]
fn analyse_prints_each_ply_and_each_sides_summary() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.pdn");
    // The second game: 28-23 lets Black take two men at once (18x40).
    let games = "[Event \"first\"]\n1. 32-28 *\n\n[White \"A\"]\n[Black \"B\"]\n[GameType \"20\"]\n\
                 [FEN \"W:W28,34,46,47,48,49:B1,2,3,4,5,18\"]\n1. 28-23 18x40 *\n";
    std::fs::write(&file, games).unwrap();
    let path = file.to_str().unwrap();
    let (code, out, err) = call(&["analyse", path, "--game", "2", "--nodes", "5000"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9, "{out}");
    assert_eq!(lines[..2], ["A – B", "rules international,repetition=0 nodes 5000 a position"]);
    assert!(lines[3].starts_with("1.      28-23 ") && lines[3].ends_with(" blunder"), "{}", lines[3]);
    assert!(lines[4].starts_with("1...    18x40 ") && lines[4].ends_with(" 0.00  forced"), "{}", lines[4]);
    assert!(lines[5].starts_with("end "), "{}", lines[5]);
    assert!(lines[6].starts_with("white: 1 move (1 judged), 0 inaccuracies, 0 mistakes, 1 blunder, average loss "));
    assert_eq!(lines[7], "black: 1 move (0 judged), 0 inaccuracies, 0 mistakes, 0 blunders, average loss 0.00");
    // The blunder's position and the end searched, 5,000 nodes each (and
    // the few a search finishes with).
    let nodes: u64 = lines[8].split(' ').nth(1).and_then(|n| n.parse().ok()).unwrap_or_default();
    assert!(lines[8].contains(" time_ms ") && (10_000..10_100).contains(&nodes), "{}", lines[8]);

    let (code, json, err) = call(&["analyse", path, "--game", "2", "--nodes", "5000", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let analysis: crate::engine::analysis::Analysis = serde_json::from_str(&json).unwrap();
    assert_eq!(analysis.plies.len(), 2);
    assert_eq!(analysis.white.blunders, 1);

    for (args, named) in [
        (&["analyse", path, "--game", "3"][..], "has 2 games"),
        (&["analyse", path, "--nodes", "10"], "--nodes"),
        (&["analyse", path, "--game", "0"], "--game"),
        (&["analyse", "/nonexistent.pdn"], "cannot read"),
    ] {
        let (code, out, err) = call(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(out.is_empty() && err.contains(named), "{args:?}: {err}");
    }
    std::fs::write(&file, "1. 32-28 18-23 2. 28-33 *\n").unwrap();
    let (code, _, err) = call(&["analyse", path]);
    assert_eq!(code, Some(2));
    assert!(err.contains(":1: ply 3: 28-33"), "{err}");
}
