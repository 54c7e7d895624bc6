//! The `dames` binary's command line as a shell sees it: the help, a
//! subcommand's output, and a bad option named with exit status 2 (clap's
//! parse in `main.rs`, before anything is served).
#![cfg(feature = "ssr")]

use std::process::{Command, Output};

fn dames(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dames")).args(args).output().expect("the binary runs")
}

#[test]
fn help_lists_every_subcommand() {
    let output = dames(&["--help"]);
    assert_eq!(output.status.code(), Some(0));
    let help = String::from_utf8(output.stdout).unwrap();
    for name in [
        "serve",
        "perft",
        "moves",
        "replay",
        "bestmove",
        "analyse",
        "hub",
        "selfplay",
        "tune",
        "endgame",
        "bench",
        "agreement",
        "bench-server",
        "cluster",
        "loadtest",
    ] {
        assert!(help.lines().any(|l| l.trim_start().starts_with(name)), "{name} in {help}");
    }
    let output = dames(&["selfplay", "--help"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8(output.stdout).unwrap().contains("--black-nodes <N>"));
}

#[test]
fn a_subcommand_writes_its_answer() {
    let output = dames(&["moves", "W:W22:B18", "--rules", "english,mandatory=0"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "22x15{18}\n22-17\n");
}

#[test]
fn a_bad_command_line_names_what_is_wrong_with_status_two() {
    for (args, named) in [
        (&["perft", "start", "x"][..], "<DEPTH>"),
        (&["selfplay", "--white", "1", "--black", "1", "--games", "2", "--threads", "0"], "--threads"),
        (&["serve", "--port", "80"], "--port"),
        (&["loadtest", "ftp://example.org"], "http://"),
        (&["moves", "nonsense"], "bad FEN"),
    ] {
        let output = dames(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(err.contains(named), "{args:?}: {err}");
    }
}
