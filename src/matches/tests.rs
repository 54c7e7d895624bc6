//! The referee's and the engines' tests: draws adjudicated from positions,
//! moves that lose the game, and engines in other processes that play,
//! crash, hang or answer nonsense. The engine in another process is this
//! test program itself, run again on [`fake_engine`], which speaks either
//! Hub protocol (the second through `dames hub`'s own state machine) with
//! the fault its arguments ask for.

use super::external::{Budget, Engine, EngineSpec, Protocol};
use super::*;
use crate::engine::hub::{hub_move, parse_board, Hub};
use crate::engine::pdn::{parse_pdn, replay, write_pdn};
use crate::engine::{parse_move, DrawReason, Position, Rules, WinReason};
use std::io::{BufRead, Write};

/// A player that plays its moves in turn, over and over: `illegal` if a
/// move does not parse or is not legal.
struct Script {
    moves: Vec<&'static str>,
    next: usize,
}

impl Script {
    fn new(moves: &[&'static str]) -> Script {
        Script { moves: moves.to_vec(), next: 0 }
    }
}

impl Player for Script {
    fn name(&self) -> String {
        "script".into()
    }

    fn describe(&self) -> String {
        format!("script {}", self.moves.join(" "))
    }

    fn reply(&mut self, game: &Game, _seed: u64) -> Answer {
        let text = self.moves[self.next % self.moves.len()];
        self.next += 1;
        let reply = match parse_move(game.position(), text) {
            Ok(mv) => Reply::Move(mv),
            Err(_) => Reply::Illegal(text.into()),
        };
        Answer { reply, ms: 1.0 }
    }
}

fn opening(fen: &str, rules: Rules) -> Game {
    Game::with_fmjd_counts(Position::from_fen_with(fen, rules).unwrap())
}

#[test]
fn the_referee_applies_the_draw_rules_the_players_do_not_keep() {
    let no_repetition = Rules { repetition: false, ..Rules::INTERNATIONAL };
    let shuffle_white = ["46-41", "41-46"];
    let shuffle_black = ["3-9", "9-3"];
    // (position, rules, the outcome, after how many plies)
    for (fen, rules, reason, plies) in [
        ("W:WK46,K47,K48,K49:BK3,K4", Rules::INTERNATIONAL, DrawReason::Repetition, 8),
        ("W:WK46,K47,K48,K49:BK3,K4", no_repetition, DrawReason::KingMoves, 50),
        ("W:WK46,K47,K48:BK3", no_repetition, DrawReason::EndgameCount, 32),
        ("W:WK46,K47:BK3", no_repetition, DrawReason::EndgameCount, 10),
        ("W:WK46,47:BK3", no_repetition, DrawReason::EndgameCount, 10),
        ("W:WK46,K47:BK3", Rules::INTERNATIONAL, DrawReason::Repetition, 8),
    ] {
        for first_color in [Color::White, Color::Black] {
            let (mut first, mut second) = (Script::new(&shuffle_white), Script::new(&shuffle_black));
            if first_color == Color::Black {
                std::mem::swap(&mut first, &mut second);
            }
            let played = play_game(&opening(fen, rules), first_color, [&mut first, &mut second], 0);
            let case = format!("{fen} {rules} first {first_color}");
            assert_eq!(played.game.outcome(), Some(Outcome::Draw(reason)), "{case}");
            assert_eq!(played.game.moves().len(), plies, "{case}");
            assert_eq!(played.verdict, Verdict::Draw, "{case}");
            assert_eq!(played.sides[0].moves + played.sides[1].moves, plies as u32, "{case}");
            assert_eq!(played.forfeit, None, "{case}");
        }
    }
}

#[test]
fn an_illegal_move_loses_the_game_and_is_counted() {
    // (the second player's moves, the forfeit's words)
    for (moves, words) in [(&["3-9", "1-2"][..], "illegal move \"1-2\" by script"), (&["3-9", "9x3"], "\"9x3\"")] {
        let mut first = Script::new(&["46-41", "41-46"]);
        let mut second = Script::new(moves);
        let played = play_game(
            &opening("W:WK46,K47,K48,K49:BK3,K4", Rules::INTERNATIONAL),
            Color::White,
            [&mut first, &mut second],
            0,
        );
        assert_eq!(played.game.outcome(), Some(Outcome::Win { winner: Color::White, reason: WinReason::Resignation }));
        assert_eq!(played.verdict, Verdict::Win);
        assert_eq!(played.game.moves().len(), 3, "the illegal move is not played");
        assert_eq!((played.sides[1].illegal, played.sides[0].illegal), (1, 0));
        assert!(played.forfeit.as_deref().is_some_and(|f| f.contains(words)), "{:?}", played.forfeit);
    }
}

#[test]
fn our_levels_play_the_same_game_with_the_same_seed() {
    let level = |level: Level, nodes| Ours { level, limits: Limits { nodes, ..level.limits() } };
    let start = Game::with_fmjd_counts(Position::start());
    let mut games = Vec::new();
    for _ in 0..2 {
        let (mut first, mut second) = (level(Level::Fort, 3_000), level(Level::Intermediaire, 2_000));
        games.push(play_game(&start, Color::Black, [&mut first, &mut second], 7));
    }
    assert_eq!(games[0].game, games[1].game);
    assert!(games[0].game.is_over() && games[0].forfeit.is_none());
    assert!(games[0].sides.iter().all(|s| s.moves > 10 && s.ms > 0.0), "{:?}", games[0].sides);
}

/// The fault a fake engine shows at `go`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fault {
    None,
    /// Answers a move that is not legal.
    Illegal,
    /// Answers `move` with nothing after it.
    Empty,
    /// Exits.
    Crash,
    /// Never answers.
    Hang,
}

/// The command that runs this test program as an engine in another
/// process: it speaks `protocol` (`hub1`, `hub2`) and, at its first `go`,
/// shows `fault` (`none`, `illegal`, `empty`, `crash`, `hang`); with
/// `once`, only the first process of that folder does (it leaves a mark
/// there), so that the restarted engine plays on.
pub(crate) fn fake_engine_command(protocol: &str, fault: &str, once: Option<&std::path::Path>) -> Vec<String> {
    let exe = std::env::current_exe().unwrap().to_str().unwrap().to_string();
    let mark = once.map_or(String::new(), |dir| dir.join("mark").to_str().unwrap().to_string());
    let harness = ["--exact", "matches::tests::fake_engine", "--include-ignored", "--nocapture", "-q"];
    // An extra filter names no test: the harness lets it through, and the
    // fake engine reads its orders from it.
    let orders = format!("fake-engine:{protocol}:{fault}:{mark}");
    std::iter::once(exe).chain(harness.iter().map(|s| s.to_string())).chain([orders]).collect()
}

fn fake_spec(protocol: Protocol, fault: &str, once: Option<&std::path::Path>, budget: Budget) -> EngineSpec {
    let command = fake_engine_command(&protocol.to_string(), fault, once);
    EngineSpec { command, dir: None, protocol, budget, settings: Vec::new() }
}

/// A fake engine, run by [`fake_spec`] as another process (and, run among
/// the other tests, it does nothing). It speaks the first Hub protocol
/// itself, playing the first legal move; the second through `dames hub`'s
/// state machine.
#[test]
#[ignore = "an engine for the other tests, run by them as a process"]
fn fake_engine() {
    let Some(orders) = std::env::args().find_map(|a| a.strip_prefix("fake-engine:").map(str::to_string)) else {
        return;
    };
    let mut parts = orders.splitn(3, ':');
    let (protocol, fault, mark) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let mut fault = match fault {
        "illegal" => Fault::Illegal,
        "empty" => Fault::Empty,
        "crash" => Fault::Crash,
        "hang" => Fault::Hang,
        _ => Fault::None,
    };
    if !mark.is_empty() {
        if std::path::Path::new(mark).exists() {
            fault = Fault::None;
        } else {
            std::fs::write(mark, "").unwrap();
        }
    }
    let stdout = std::io::stdout();
    let say = |lines: &[String]| {
        let mut out = stdout.lock();
        for line in lines {
            writeln!(out, "{line}").unwrap();
        }
        out.flush().unwrap();
    };
    // Lines the runner must skip, as it skips the harness's own.
    say(&["fake engine here".into()]);
    let mut hub = Hub::new();
    let mut position = Position::start();
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let command = line.split_whitespace().next().unwrap_or("");
        if command == "go" {
            match fault {
                Fault::Crash => std::process::exit(3),
                Fault::Hang => loop {
                    std::thread::sleep(std::time::Duration::from_secs(60));
                },
                Fault::Illegal | Fault::Empty => {
                    let answer = match (protocol, fault) {
                        ("hub1", Fault::Illegal) => "move 1-2",
                        ("hub1", _) => "move",
                        (_, Fault::Illegal) => "done move=1-2",
                        _ => "done move=",
                    };
                    say(&[answer.into()]);
                    continue;
                }
                Fault::None => {}
            }
        }
        if protocol == "hub2" {
            let answer = hub.handle(&line);
            say(&answer.lines);
            if answer.quit {
                std::process::exit(0);
            }
            continue;
        }
        let argument = line.split_whitespace().nth(1).unwrap_or("");
        match command {
            "hub" => say(&["name Fake One".into(), "author nobody".into(), "wait".into()]),
            "init" => say(&["ready".into()]),
            "pos" => match parse_board(argument) {
                Ok(pos) => position = pos,
                Err(e) => say(&[format!("error {e}")]),
            },
            "go" => match position.legal_moves().first() {
                Some(mv) => say(&["info nothing to see".into(), format!("move {}", hub_move(mv))]),
                None => say(&["error no move".into()]),
            },
            "quit" => std::process::exit(0),
            _ => {}
        }
    }
    std::process::exit(0);
}

/// A folder of its own for a test, removed at its end.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn ours(nodes: u64) -> Ours {
    Ours { level: Level::Intermediaire, limits: Limits { nodes, ..Level::Intermediaire.limits() } }
}

#[test]
fn engines_in_other_processes_play_whole_games_in_both_protocols() {
    for (protocol, budget, name) in
        [(Protocol::Hub1, Budget::Time(5), "Fake One"), (Protocol::Hub2, Budget::Nodes(300), "Dames 0.1.0")]
    {
        let mut engine = Engine::new(fake_spec(protocol, "none", None, budget));
        engine.start().unwrap();
        assert_eq!(engine.name(), name);
        let mut ours = ours(2_000);
        let start = Game::with_fmjd_counts(Position::start());
        let played = play_game(&start, Color::White, [&mut ours, &mut engine], 3);
        assert!(played.game.is_over() && played.forfeit.is_none(), "{protocol}: {:?}", played.forfeit);
        assert_eq!(played.sides[1].restarts, 0, "{protocol}");
        assert!(played.sides[1].moves > 5, "{protocol}: {:?}", played.sides);
        // The game's record replays to the same end.
        let text = write_pdn(&played.game, &[("White", "ours"), ("Black", &engine.describe())], "*");
        let again = replay(&parse_pdn(&text)[0]).unwrap();
        assert_eq!(again.moves(), played.game.moves(), "{protocol}");
        // A second game on the same process.
        let played = play_game(&start, Color::Black, [&mut ours, &mut engine], 3);
        assert!(played.game.is_over() && played.forfeit.is_none(), "{protocol}");
        assert_eq!(engine.restarts(), 0);
    }
}

#[test]
fn an_engines_illegal_or_empty_move_loses_the_game() {
    for protocol in [Protocol::Hub1, Protocol::Hub2] {
        for (fault, words) in [("illegal", "illegal move \"1-2\""), ("empty", "illegal move \"\"")] {
            let mut engine = Engine::new(fake_spec(protocol, fault, None, Budget::Time(5)));
            let mut ours = ours(500);
            let start = Game::with_fmjd_counts(Position::start());
            let played = play_game(&start, Color::White, [&mut ours, &mut engine], 0);
            assert_eq!(played.verdict, Verdict::Win, "{protocol} {fault}");
            assert_eq!(played.game.moves().len(), 1, "{protocol} {fault}");
            assert_eq!(played.sides[1].illegal, 1, "{protocol} {fault}");
            let forfeit = played.forfeit.unwrap_or_default();
            assert!(forfeit.contains(words), "{protocol} {fault}: {forfeit}");
        }
    }
}

#[test]
fn an_engine_that_crashes_or_hangs_once_is_restarted_and_plays_on() {
    for fault in ["crash", "hang"] {
        let folder = scratch();
        let mut engine = Engine::new(fake_spec(Protocol::Hub1, fault, Some(folder.path()), Budget::Time(1)));
        let mut ours = ours(500);
        let start = Game::with_fmjd_counts(Position::start());
        let played = play_game(&start, Color::Black, [&mut ours, &mut engine], 0);
        assert!(played.game.is_over() && played.forfeit.is_none(), "{fault}: {:?}", played.forfeit);
        assert_eq!(played.sides[1].restarts, 1, "{fault}");
        assert_eq!(played.sides[1].failed, 0, "{fault}");
    }
}

#[test]
fn an_engine_that_keeps_crashing_forfeits_the_game() {
    let mut engine = Engine::new(fake_spec(Protocol::Hub1, "crash", None, Budget::Time(5)));
    let mut ours = ours(500);
    let start = Game::with_fmjd_counts(Position::start());
    let played = play_game(&start, Color::White, [&mut ours, &mut engine], 0);
    assert_eq!(played.verdict, Verdict::Win);
    assert_eq!(played.sides[1].failed, 1);
    assert_eq!(played.sides[1].restarts, external::RESTARTS_PER_MOVE);
    let forfeit = played.forfeit.unwrap_or_default();
    assert!(forfeit.starts_with("no move from Fake One: it exited"), "{forfeit}");
}

#[test]
fn an_engine_that_cannot_start_says_why() {
    let spec = EngineSpec {
        command: vec!["/nonexistent/engine".into(), "hub".into()],
        dir: None,
        protocol: Protocol::Hub1,
        budget: Budget::Time(100),
        settings: Vec::new(),
    };
    let error = Engine::new(spec).start().unwrap_err();
    assert!(error.contains("/nonexistent/engine"), "{error}");
}

#[test]
fn the_first_protocol_has_no_node_budget() {
    assert!(Protocol::Hub1.budget_line(Budget::Nodes(1000)).is_err());
    for (protocol, budget, line) in [
        (Protocol::Hub1, Budget::Time(100), "time 100"),
        (Protocol::Hub1, Budget::Depth(9), "depth 9"),
        (Protocol::Hub2, Budget::Time(250), "level move-time=0.25"),
        (Protocol::Hub2, Budget::Nodes(1000), "level nodes=1000"),
        (Protocol::Hub2, Budget::Depth(9), "level depth=9"),
    ] {
        assert_eq!(protocol.budget_line(budget).as_deref(), Ok(line));
    }
}
