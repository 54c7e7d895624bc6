//! The `dames` command line over the engine: `perft`, `moves`, `replay`,
//! `bestmove`, `hub` and `selfplay`. Each subcommand prints to the given
//! writers and returns the process exit status: 0 success, 1 a failed check
//! (a game that does not replay), 2 bad input, with a one-line message.

use crate::engine::any::AnyPosition;
use crate::engine::bot::{self, Level};
use crate::engine::endgame::{self, Verdict as TableVerdict};
use crate::engine::eval::{patterns::Weights, Evaluation};
use crate::engine::geometry::{Eight, Geometry, Ten, Twelve};
use crate::engine::hub::Hub;
use crate::engine::pdn::{parse_pdn, replay, replay_with, write_pdn, PdnGame};
use crate::engine::search::{DrawCounters, Limits};
use crate::engine::{move_to_text, Game, Outcome, Position, Rules};
use std::io::Write;
use std::time::Instant;

/// The deepest perft the command accepts: deeper runs would not end in a
/// lifetime.
const MAX_PERFT_DEPTH: u32 = 20;

pub const USAGE: &str = "usage: dames [serve]
       dames perft <FEN|start> <depth> [--divide] [--rules SPEC]
       dames moves <FEN|start> [--rules SPEC]
       dames replay <file.pdn>... [--rules SPEC]
       dames bestmove <FEN|start> [--level LEVEL | --depth D | --nodes N] [--eval E] [--weights FILE]
                      [--probcut 0|1] [--pruning 0|1] [--tables 0|1] [--two-slot 0|1] [--seed S]
                      [--rules SPEC]
       dames hub
       dames selfplay --white LEVEL --black LEVEL --games N [--from K] [--seed S] [--rules SPEC]
                      [--eval E] [--white-eval E] [--black-eval E] [--weights FILE]
                      [--white-weights FILE] [--black-weights FILE] [--probcut 0|1]
                      [--white-probcut 0|1] [--black-probcut 0|1] [--pruning 0|1]
                      [--white-pruning 0|1] [--black-pruning 0|1] [--tables 0|1]
                      [--white-tables 0|1] [--black-tables 0|1] [--two-slot 0|1]
                      [--white-two-slot 0|1] [--black-two-slot 0|1] [--nodes N] [--white-nodes N]
                      [--black-nodes N] [--table-bits B] [--white-table-bits B]
                      [--black-table-bits B] [--threads T] [--pdn FILE]
       dames tune generate --games N --out FILE [--seed S] [--nodes N] [--threads T] [--eval E]
                      [--weights FILE] [--pruning 0|1] [--tables 0|1]
       dames tune fit --data FILE... --out FILE [--epochs E] [--rate R] [--pattern-rate P] [--l2 L]
                      [--lambda L] [--phases 1|2]
       dames endgame [<FEN>] [--rules SPEC]
       dames bench <file.pdn>... [--positions N]
       dames agreement <file.pdn>... [--positions N] [--level LEVEL] [--eval E] [--weights FILE]
                      [--probcut 0|1] [--pruning 0|1] [--tables 0|1] [--two-slot 0|1] [--nodes N]
       dames bench-server
       dames cluster [--servers N] [--port P]
       dames loadtest URL --players N --seconds S [--think-ms T] [--level LEVEL] [--server-pid PID]...
LEVEL: debutant, intermediaire, fort, or a step of the electronic board's
      ladder, 1 (a beginner's opponent) to 8 (the strongest)
E: the evaluation, classic (material, kings, placement: every level's but
      fort's and step 8's) or learned (weights fitted by dames tune, fort's:
      international only, with unfinished iterations kept; other rule sets
      fall back to classic)
--weights: the learned evaluation with the weights of FILE (written by
      dames tune fit) instead of the shipped ones
--lambda: the share of the search's score in the fit's target (0: the game
      result alone); --phases 2: weights for the opening and the ending
--probcut: ProbCut in the search on (1) or off (0, every level's)
--pruning: frontier pruning (reverse futility, razoring) on (1: fort's and
      step 8's) or off (0: the other levels)
--tables: the exact endgame tables (three pieces or fewer) used (1: fort's
      and steps 6 to 8) or not (0: the other levels)
--from K: the match from its game K on (the games before it skipped, each
      game being the same whenever it is played: a match cut short goes on)
--two-slot: the transposition table keeps the deepest and the latest entry
      of each slot (1) or the latest only (0: every level's)
SPEC: a rule set, international (the default), english, russian or brazilian,
      then optional overrides: size=8|10|12, rows=N, first=white|black,
      men_back=0|1, flying=0|1, mandatory=0|1, majority=0|1,
      promotion=stays_man|becomes_king_continues|ends_move, draw_moves=N,
      repetition=0|1 (e.g. english,mandatory=0)";

/// Bad input: the message for the user's one line of error.
#[derive(Debug)]
pub struct UsageError(pub String);

impl<T: std::fmt::Display> From<T> for UsageError {
    fn from(e: T) -> UsageError {
        UsageError(e.to_string())
    }
}

/// Runs one subcommand (`args` without the program name). Returns `None`
/// when `args` names no subcommand, so the caller serves the site.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> Option<i32> {
    let (command, rest) = args.split_first()?;
    let result = match command.as_str() {
        "serve" => return None,
        "perft" => perft_command(rest, out),
        "moves" => moves_command(rest, out),
        "replay" => return Some(replay_command(rest, out, err)),
        "bestmove" => bestmove_command(rest, out),
        "hub" => hub_command(rest),
        "selfplay" => selfplay_command(rest, out),
        "tune" => crate::tune::command(rest, out),
        "endgame" => endgame_command(rest, out),
        "bench" => bench_command(rest, out),
        "agreement" => agreement_command(rest, out),
        #[cfg(feature = "ssr")]
        "bench-server" => bench_server_command(out),
        "help" | "--help" | "-h" => writeln!(out, "{USAGE}").map(|_| 0).map_err(UsageError::from),
        other => Err(UsageError(format!("unknown subcommand {other:?}; try `dames help`"))),
    };
    Some(match result {
        Ok(code) => code,
        Err(UsageError(message)) => {
            let _ = writeln!(err, "dames: {message}");
            2
        }
    })
}

/// `start` or a FEN, under `rules`.
fn parse_any_position(text: &str, rules: Rules) -> Result<AnyPosition, UsageError> {
    if text == "start" {
        AnyPosition::initial(rules).map_err(UsageError::from)
    } else {
        AnyPosition::from_fen(text, rules).map_err(|e| UsageError(format!("bad FEN {text:?}: {e}")))
    }
}

/// Takes `--rules SPEC` out of `args` (international when absent).
fn take_rules(args: &[String]) -> Result<(Rules, Vec<&str>), UsageError> {
    let mut rules = Rules::INTERNATIONAL;
    let mut rest = Vec::new();
    let mut args = args.iter();
    while let Some(a) = args.next() {
        if a == "--rules" {
            let spec = args.next().ok_or_else(|| UsageError("--rules needs a value".into()))?;
            rules = Rules::parse(spec).map_err(|e| UsageError(format!("--rules: {e}")))?;
        } else {
            rest.push(a.as_str());
        }
    }
    Ok((rules, rest))
}

fn perft_command(args: &[String], out: &mut dyn Write) -> Result<i32, UsageError> {
    let (rules, args) = take_rules(args)?;
    let mut divide = false;
    let mut positional = Vec::new();
    for a in args {
        match a {
            "--divide" => divide = true,
            flag if flag.starts_with("--") => return Err(UsageError(format!("unknown option {flag}"))),
            _ => positional.push(a),
        }
    }
    let [fen, depth] = positional[..] else {
        return Err(UsageError("perft takes a FEN (or start) and a depth".into()));
    };
    let pos = parse_any_position(fen, rules)?;
    let depth: u32 = depth
        .parse()
        .ok()
        .filter(|d| (1..=MAX_PERFT_DEPTH).contains(d))
        .ok_or_else(|| UsageError(format!("depth must be a number from 1 to {MAX_PERFT_DEPTH}, not {depth:?}")))?;
    if divide {
        let mut total = 0;
        let started = Instant::now();
        for (mv, nodes) in pos.perft_divide(depth) {
            writeln!(out, "{mv} {nodes}")?;
            total += nodes;
        }
        print_perft_line(out, depth, total, started)?;
        return Ok(0);
    }
    for d in 1..=depth {
        let started = Instant::now();
        let nodes = pos.perft(d);
        print_perft_line(out, d, nodes, started)?;
    }
    Ok(0)
}

fn print_perft_line(out: &mut dyn Write, depth: u32, nodes: u64, started: Instant) -> std::io::Result<()> {
    let seconds = started.elapsed().as_secs_f64();
    let mnps = if seconds > 0.0 { nodes as f64 / seconds / 1e6 } else { 0.0 };
    writeln!(out, "depth {depth} nodes {nodes} time_ms {} mnps {mnps:.1}", (seconds * 1000.0).round() as u64)
}

/// The exact endgame tables of a preset's moves: with a FEN (at most three
/// pieces), its verdict; without, what each material's table holds and how
/// long computing them all took.
fn endgame_command(args: &[String], out: &mut dyn Write) -> Result<i32, UsageError> {
    let (rules, args) = take_rules(args)?;
    match args[..] {
        [] => {
            let started = Instant::now();
            let summary = match rules.size {
                8 => endgame::table_for::<Eight>(rules).map(|t| t.summary(rules)),
                10 => endgame::table_for::<Ten>(rules).map(|t| t.summary(rules)),
                _ => None,
            };
            let Some(summary) = summary else {
                return Err(UsageError(format!("no endgame table for {rules}: only the presets' moves have one")));
            };
            for m in &summary {
                writeln!(
                    out,
                    "{:<6} positions {:>7} won {:>7} lost {:>7} drawn {:>7} longest_win {}",
                    m.name, m.positions, m.won, m.lost, m.drawn, m.longest_win
                )?;
            }
            writeln!(out, "computed and counted in {} ms", started.elapsed().as_millis())?;
        }
        [fen] => {
            let verdict = match parse_any_position(fen, rules)? {
                AnyPosition::Eight(p) => endgame::table_for::<Eight>(rules).map(|t| t.probe(&p)),
                AnyPosition::Ten(p) => endgame::table_for::<Ten>(rules).map(|t| t.probe(&p)),
                AnyPosition::Twelve(_) => None,
            };
            let Some(verdict) = verdict else {
                return Err(UsageError(format!("no endgame table for {rules}: only the presets' moves have one")));
            };
            let Some(verdict) = verdict else {
                return Err(UsageError(format!(
                    "the tables hold positions of at most {} pieces, both sides on the board",
                    endgame::MAX_PIECES
                )));
            };
            let text = match verdict {
                TableVerdict::Win(plies) => format!("win in {plies} plies"),
                TableVerdict::Loss(0) => "lost: no move".to_string(),
                TableVerdict::Loss(plies) => format!("loss in {plies} plies"),
                TableVerdict::Draw => "draw".to_string(),
            };
            writeln!(out, "{text}")?;
        }
        _ => return Err(UsageError("endgame takes at most one FEN".into())),
    }
    Ok(0)
}

fn moves_command(args: &[String], out: &mut dyn Write) -> Result<i32, UsageError> {
    let (rules, args) = take_rules(args)?;
    let [fen] = args[..] else {
        return Err(UsageError("moves takes one FEN (or start)".into()));
    };
    for text in parse_any_position(fen, rules)?.legal_move_texts() {
        writeln!(out, "{text}")?;
    }
    Ok(0)
}

fn replay_command(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let (default_rules, files) = match take_rules(args) {
        Ok(found) => found,
        Err(UsageError(message)) => {
            let _ = writeln!(err, "dames: {message}");
            return 2;
        }
    };
    if files.is_empty() {
        let _ = writeln!(err, "dames: replay takes one or more PDN files");
        return 2;
    }
    let (mut games, mut failed) = (0, 0);
    for file in files {
        let bytes = match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                let _ = writeln!(err, "dames: cannot read {file}: {e}");
                return 2;
            }
        };
        // PDN files in the wild are ASCII, UTF-8 or Latin-1.
        let text = String::from_utf8(bytes).unwrap_or_else(|e| e.into_bytes().iter().map(|&b| b as char).collect());
        for (i, pdn) in parse_pdn(&text).iter().enumerate() {
            games += 1;
            let line = match replay_any(pdn, default_rules) {
                Ok(plies) => format!("ok {plies}"),
                Err((ply, e)) => {
                    failed += 1;
                    format!("error {file}:{} {ply}: {e}", i + 1)
                }
            };
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = writeln!(out, "games {games} ok {} failed {failed}", games - failed);
    if failed > 0 {
        1
    } else {
        0
    }
}

/// Replays a PDN game under the rules its tags name (`default` when none),
/// on their board: its plies, or the ply where it failed and why.
fn replay_any(pdn: &PdnGame, default: Rules) -> Result<usize, (usize, String)> {
    fn on<G: Geometry>(pdn: &PdnGame, rules: Rules) -> Result<usize, (usize, String)> {
        replay_with::<G>(pdn, rules).map(|g| g.moves().len()).map_err(|e| (e.ply().unwrap_or(0), e.to_string()))
    }
    let rules = pdn.rules(default).map_err(|e| (0, e))?;
    match rules.size {
        8 => on::<Eight>(pdn, rules),
        12 => on::<Twelve>(pdn, rules),
        _ => on::<Ten>(pdn, rules),
    }
}

/// Reads `--name value` options; every option must be in `known`.
pub(crate) fn options<'a>(
    args: &'a [String],
    known: &[&str],
) -> Result<(Vec<&'a str>, Vec<(&'a str, &'a str)>), UsageError> {
    let mut positional = Vec::new();
    let mut named = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if let Some(name) = a.strip_prefix("--") {
            if !known.contains(&name) {
                return Err(UsageError(format!("unknown option --{name}")));
            }
            let value = args.get(i + 1).ok_or_else(|| UsageError(format!("--{name} needs a value")))?;
            named.push((name, value.as_str()));
            i += 2;
        } else {
            positional.push(a);
            i += 1;
        }
    }
    Ok((positional, named))
}

pub(crate) fn number<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, UsageError> {
    value.parse().map_err(|_| UsageError(format!("--{name} takes a number, not {value:?}")))
}

/// The value of `--name` among named options (the last one given).
pub(crate) fn value<'a>(named: &[(&str, &'a str)], name: &str) -> Option<&'a str> {
    named.iter().rev().find(|(k, _)| *k == name).map(|(_, v)| *v)
}

/// The value of `--name`, which must be given.
pub(crate) fn required<'a>(named: &[(&str, &'a str)], name: &str) -> Result<&'a str, UsageError> {
    value(named, name).ok_or_else(|| UsageError(format!("--{name} is required")))
}

/// `limits` with the evaluation (`--eval E`) and the search's switches
/// (`--probcut`, `--pruning`, `--tables`, each `0|1`) asked for, where they
/// were. For a side of a match (`white` or `black`), its own option
/// (`--white-eval` …) comes before the match's (`--eval` …).
pub(crate) fn with_search_options(
    limits: Limits,
    named: &[(&str, &str)],
    side: Option<&str>,
) -> Result<Limits, UsageError> {
    let own = |name: &str| option_name(named, side, name);
    let limits = match (value(named, &own("eval")), value(named, &own("weights"))) {
        (None | Some("learned"), Some(path)) => limits.judged_by(Evaluation::Fitted(weights_file(path)?)),
        (Some(_), Some(_)) => return Err(UsageError("--weights goes with the learned evaluation only".into())),
        (Some(eval), None) => limits.judged_by(eval.parse()?),
        (None, None) => limits,
    };
    Ok(Limits {
        probcut: switch(named, &own("probcut"))?.unwrap_or(limits.probcut),
        frontier_pruning: switch(named, &own("pruning"))?.unwrap_or(limits.frontier_pruning),
        endgame_tables: switch(named, &own("tables"))?.unwrap_or(limits.endgame_tables),
        two_slot_table: switch(named, &own("two-slot"))?.unwrap_or(limits.two_slot_table),
        ..limits
    })
}

/// Learned weights from a file (`dames tune fit` writes them), kept for the
/// rest of the run: the searches of a match borrow them.
fn weights_file(path: &str) -> Result<&'static Weights, UsageError> {
    let bytes = std::fs::read(path).map_err(|e| UsageError(format!("cannot read {path}: {e}")))?;
    let weights = Weights::read(&bytes).map_err(|e| UsageError(format!("{path}: {e}")))?;
    Ok(Box::leak(Box::new(weights)))
}

/// The option a side of a match reads for `name`: its own (`white-nodes`)
/// when given, else the match's (`nodes`).
fn option_name(named: &[(&str, &str)], side: Option<&str>, name: &str) -> String {
    side.map(|side| format!("{side}-{name}"))
        .filter(|own| value(named, own).is_some())
        .unwrap_or_else(|| name.to_string())
}

/// The switch `--name 0|1`, when given.
fn switch(named: &[(&str, &str)], name: &str) -> Result<Option<bool>, UsageError> {
    match value(named, name) {
        None => Ok(None),
        Some("0") => Ok(Some(false)),
        Some("1") => Ok(Some(true)),
        Some(other) => Err(UsageError(format!("--{name} takes 0 or 1, not {other:?}"))),
    }
}

/// The number given as `--name`, or `default`.
pub(crate) fn number_or<T: std::str::FromStr>(named: &[(&str, &str)], name: &str, default: T) -> Result<T, UsageError> {
    value(named, name).map_or(Ok(default), |v| number(name, v))
}

fn bestmove_command(args: &[String], out: &mut dyn Write) -> Result<i32, UsageError> {
    let (positional, named) = options(
        args,
        &["level", "depth", "nodes", "eval", "weights", "probcut", "pruning", "tables", "two-slot", "seed", "rules"],
    )?;
    let [fen] = positional[..] else {
        return Err(UsageError("bestmove takes one FEN (or start)".into()));
    };
    let rules = rules_option(&named)?;
    let pos = parse_any_position(fen, rules)?;
    let mut limits = Level::default().limits();
    let mut seed = 0u64;
    for &(name, value) in &named {
        match name {
            "level" => limits = value.parse::<Level>()?.limits(),
            "depth" => {
                let depth: u32 = number(name, value)?;
                if !(1..=64).contains(&depth) {
                    return Err(UsageError("--depth must be from 1 to 64".into()));
                }
                limits = Limits { depth, nodes: u64::MAX, ..limits };
            }
            "nodes" => {
                let nodes: u64 = number(name, value)?;
                if nodes == 0 {
                    return Err(UsageError("--nodes must be at least 1".into()));
                }
                limits = Limits { depth: 64, nodes, ..limits };
            }
            "seed" => seed = number(name, value)?,
            _ => {}
        }
    }
    limits = with_search_options(limits, &named, None)?;
    match pos {
        AnyPosition::Eight(p) => print_bestmove(&p, &limits, seed, out),
        AnyPosition::Ten(p) => print_bestmove(&p, &limits, seed, out),
        AnyPosition::Twelve(p) => print_bestmove(&p, &limits, seed, out),
    }
}

/// `--rules SPEC` among named options (international when absent).
fn rules_option(named: &[(&str, &str)]) -> Result<Rules, UsageError> {
    match named.iter().find(|(k, _)| *k == "rules") {
        Some((_, spec)) => Rules::parse(spec).map_err(|e| UsageError(format!("--rules: {e}"))),
        None => Ok(Rules::INTERNATIONAL),
    }
}

fn print_bestmove<G: Geometry>(
    pos: &Position<G>,
    limits: &Limits,
    seed: u64,
    out: &mut dyn Write,
) -> Result<i32, UsageError> {
    let counters = DrawCounters::default();
    let Some(result) = bot::search(pos, counters, limits) else {
        writeln!(out, "bestmove none")?;
        return Ok(0);
    };
    let mv = bot::choose(&result, seed, 0);
    let mut pv_pos = *pos;
    let mut pv_text = Vec::new();
    for m in &result.pv {
        pv_text.push(move_to_text(&pv_pos, m));
        pv_pos = pv_pos.play_unchecked(m);
    }
    writeln!(
        out,
        "bestmove {} score {} depth {} nodes {} pv {}",
        move_to_text(pos, &mv),
        result.score,
        result.depth,
        result.nodes,
        pv_text.join(" ")
    )?;
    Ok(0)
}

fn hub_command(args: &[String]) -> Result<i32, UsageError> {
    if !args.is_empty() {
        return Err(UsageError("hub takes no argument".into()));
    }
    let mut hub = Hub::new();
    let stdout = std::io::stdout();
    for line in std::io::stdin().lines() {
        let answer = hub.handle(&line?);
        let mut out = stdout.lock();
        for l in &answer.lines {
            writeln!(out, "{l}")?;
        }
        out.flush()?;
        if answer.quit {
            break;
        }
    }
    Ok(0)
}

/// The two-ply openings from the start (81 in international draughts, 49 in
/// English), in a seeded order: each is
/// played twice, once with each level as White.
fn openings<G: Geometry>(start: Position<G>, seed: u64) -> Vec<Game<G>> {
    let mut games = Vec::new();
    let start = Game::new(start);
    for first in start.legal_moves() {
        let mut g = start.clone();
        g.play(&first).expect("legal");
        for second in g.legal_moves() {
            let mut h = g.clone();
            h.play(&second).expect("legal");
            games.push(h);
        }
    }
    // A seeded Fisher-Yates shuffle keeps short matches varied.
    let mut state = seed ^ 0x5851_f42d_4c95_7f2d;
    for i in (1..games.len()).rev() {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let j = ((state >> 33) % (i as u64 + 1)) as usize;
        games.swap(i, j);
    }
    games
}

fn selfplay_command(args: &[String], out: &mut dyn Write) -> Result<i32, UsageError> {
    let known = [
        "white",
        "black",
        "games",
        "from",
        "seed",
        "rules",
        "eval",
        "white-eval",
        "black-eval",
        "weights",
        "white-weights",
        "black-weights",
        "probcut",
        "white-probcut",
        "black-probcut",
        "pruning",
        "white-pruning",
        "black-pruning",
        "tables",
        "white-tables",
        "black-tables",
        "two-slot",
        "white-two-slot",
        "black-two-slot",
        "nodes",
        "white-nodes",
        "black-nodes",
        "table-bits",
        "white-table-bits",
        "black-table-bits",
        "threads",
        "pdn",
    ];
    let (positional, named) = options(args, &known)?;
    if !positional.is_empty() {
        return Err(UsageError(format!("unexpected argument {:?}", positional[0])));
    }
    let first: Level = required(&named, "white")?.parse()?;
    let second: Level = required(&named, "black")?.parse()?;
    let games: u32 = number("games", required(&named, "games")?)?;
    if !(1..=10_000).contains(&games) {
        return Err(UsageError("--games must be from 1 to 10000".into()));
    }
    // The games before this one are skipped: a match cut short goes on
    // where it stopped, each game being the same whenever it is played.
    let from: u32 = number_or(&named, "from", 1)?;
    if !(1..=games).contains(&from) {
        return Err(UsageError("--from must be from 1 to the number of games".into()));
    }
    let seed: u64 = number_or(&named, "seed", 1)?;
    let threads: usize = number_or(&named, "threads", 1)?;
    if !(1..=64).contains(&threads) {
        return Err(UsageError("--threads must be from 1 to 64".into()));
    }
    // Each player's evaluation, search switches and node budget, when not its level's.
    let budget = |level: Level, side: &str| -> Result<Limits, UsageError> {
        let mut limits = with_search_options(level.limits(), &named, Some(side))?;
        if let Some(nodes) = value(&named, &option_name(&named, Some(side), "nodes")) {
            let nodes: u64 = number("nodes", nodes)?;
            if nodes == 0 {
                return Err(UsageError("--nodes must be at least 1".into()));
            }
            limits = Limits { nodes, ..limits };
        }
        // The transposition table's size (log2 of its entries): how much a
        // budget suffers from a table it overfills.
        if let Some(bits) = value(&named, &option_name(&named, Some(side), "table-bits")) {
            let table_bits: u32 = number("table-bits", bits)?;
            if !(8..=26).contains(&table_bits) {
                return Err(UsageError("--table-bits must be from 8 to 26".into()));
            }
            limits = Limits { table_bits, ..limits };
        }
        Ok(limits)
    };
    let players = [(first, budget(first, "white")?), (second, budget(second, "black")?)];
    let pdn = value(&named, "pdn").map(std::path::PathBuf::from);
    let match_ = Match { players, games: (from - 1)..games, seed, threads, pdn };
    match AnyPosition::initial(rules_option(&named)?)? {
        AnyPosition::Eight(p) => match_.play(p, out),
        AnyPosition::Ten(p) => match_.play(p, out),
        AnyPosition::Twelve(p) => match_.play(p, out),
    }
}

/// A selfplay match: `games` games from varied openings, each player
/// playing both colours. The first player is the one named `--white`: it has
/// White in the odd games.
struct Match {
    players: [(Level, Limits); 2],
    /// The games played, numbered from 0.
    games: std::ops::Range<u32>,
    seed: u64,
    threads: usize,
    /// A file to write the games to, in PDN, as they end (to read the
    /// games a score comes from).
    pdn: Option<std::path::PathBuf>,
}

/// The first player's colour in game `i` of a match: White in even games,
/// so that each opening is played with both colours.
fn first_players_color(i: usize) -> crate::engine::Color {
    if i.is_multiple_of(2) {
        crate::engine::Color::White
    } else {
        crate::engine::Color::Black
    }
}

/// How a game of a match ended for the first player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    Win,
    Draw,
    Loss,
}

impl Match {
    fn play<G: Geometry>(&self, start: Position<G>, out: &mut dyn Write) -> Result<i32, UsageError> {
        let book = openings(start, self.seed);
        let mut tally = [0u32; 3];
        let mut pdn = match &self.pdn {
            Some(path) => Some(std::io::BufWriter::new(
                std::fs::File::create(path).map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))?,
            )),
            None => None,
        };
        let first = self.games.start as usize;
        crate::parallel::in_order(
            self.games.len(),
            self.threads,
            |i| self.game(&book, first + i),
            |i, (verdict, game)| {
                let i = first + i;
                tally[verdict as usize] += 1;
                let first_color = first_players_color(i);
                let word = ["win", "draw", "loss"][verdict as usize];
                let outcome = game.outcome().expect("finished");
                let plies = game.moves().len();
                if let Some(file) = pdn.as_mut() {
                    self.write_game(file, i, &game, outcome)?;
                }
                writeln!(
                    out,
                    "game {} {} as {first_color}: {word} in {plies} plies ({outcome})",
                    i + 1,
                    self.players[0].0
                )
            },
        )?;
        if let Some(file) = pdn.as_mut() {
            file.flush()?;
        }
        let [wins, draws, losses] = tally;
        let n = self.games.len() as f64;
        let score = (wins as f64 + draws as f64 / 2.0) / n;
        // The 95 % interval of the score from the spread of the games'
        // results.
        let spread = (wins as f64 * (1.0 - score).powi(2)
            + draws as f64 * (0.5 - score).powi(2)
            + losses as f64 * score.powi(2))
            / n;
        let margin = 1.96 * (spread / n).sqrt();
        let elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
        writeln!(
            out,
            "{} vs {}: {wins} wins, {draws} draws, {losses} losses, score {:.1}% (95 % interval {:.1}–{:.1} %, Elo {:+.0}, {:+.0} to {:+.0})",
            self.players[0].0,
            self.players[1].0,
            score * 100.0,
            (score - margin).max(0.0) * 100.0,
            (score + margin).min(1.0) * 100.0,
            elo(score),
            elo(score - margin),
            elo(score + margin),
        )?;
        Ok(0)
    }

    /// Game `i` as PDN, each side named by its level and its limits.
    fn write_game<G: Geometry>(
        &self,
        file: &mut dyn Write,
        i: usize,
        game: &Game<G>,
        outcome: Outcome,
    ) -> std::io::Result<()> {
        let name = |(level, limits): (Level, Limits)| {
            let probcut = if limits.probcut { ", probcut" } else { "" };
            let pruning = if limits.frontier_pruning { ", pruning" } else { "" };
            let tables = if limits.endgame_tables { ", endgame tables" } else { "" };
            let slots = if limits.two_slot_table { " in two slots" } else { "" };
            let (eval, nodes, bits) = (limits.eval.name(), limits.nodes, limits.table_bits);
            format!("{level} ({eval}, {nodes} nodes, table 2^{bits}{slots}{probcut}{pruning}{tables})")
        };
        let (first, second) = (name(self.players[0]), name(self.players[1]));
        let (white, black) = match first_players_color(i) {
            crate::engine::Color::White => (first, second),
            crate::engine::Color::Black => (second, first),
        };
        let round = (i + 1).to_string();
        let seed = self.seed.to_string();
        let result = outcome.pdn_result();
        let tags = [
            ("Event", "dames selfplay"),
            ("Round", round.as_str()),
            ("Seed", seed.as_str()),
            ("White", white.as_str()),
            ("Black", black.as_str()),
            ("Result", result),
        ];
        writeln!(file, "{}", write_pdn(game, &tags, result))
    }

    /// Game `i`: the opening `i / 2`, the first player White when `i` is
    /// even.
    fn game<G: Geometry>(&self, book: &[Game<G>], i: usize) -> (Verdict, Game<G>) {
        let mut game = book[(i / 2) % book.len()].clone();
        let first_color = first_players_color(i);
        while !game.is_over() {
            let (_, limits) = if game.turn() == first_color { self.players[0] } else { self.players[1] };
            let result = bot::Searcher::new(&limits)
                .with_game_history(&game)
                .search(game.position(), DrawCounters::of(&game), &limits)
                .expect("a game not over has a move");
            let mv = bot::choose(&result, self.seed ^ i as u64, game.moves().len());
            game.play(&mv).expect("the search returns legal moves");
        }
        let verdict = match game.outcome().expect("finished") {
            Outcome::Win { winner, .. } if winner == first_color => Verdict::Win,
            Outcome::Win { .. } => Verdict::Loss,
            Outcome::Draw(_) => Verdict::Draw,
        };
        (verdict, game)
    }
}

/// The server's figures (needs the `ssr` build, run inside its runtime).
#[cfg(feature = "ssr")]
fn bench_server_command(out: &mut dyn Write) -> Result<i32, UsageError> {
    let handle = tokio::runtime::Handle::try_current().map_err(|e| UsageError(e.to_string()))?;
    tokio::task::block_in_place(|| handle.block_on(crate::ops::bench::run(out)))?;
    Ok(0)
}

/// Reply times of each level over positions from real games, and the
/// search speed of `fort` from the start.
/// Positions of the games in `files` (international draughts), every
/// seventh from the fifth ply on, each with the move played there; about
/// `wanted` of them, spread evenly.
fn positions_of_games(files: &[&str], wanted: usize) -> Result<Vec<(Position, crate::engine::Move)>, UsageError> {
    let mut positions = Vec::new();
    for file in files {
        let bytes = std::fs::read(file).map_err(|e| UsageError(format!("cannot read {file}: {e}")))?;
        let text = String::from_utf8(bytes).unwrap_or_else(|e| e.into_bytes().iter().map(|&b| b as char).collect());
        for pdn in parse_pdn(&text) {
            if let Ok(game) = replay(&pdn) {
                let played = game.positions().into_iter().zip(game.moves().iter().copied());
                positions.extend(played.skip(4).step_by(7));
            }
        }
    }
    if positions.is_empty() {
        return Err(UsageError("no position found in those files".into()));
    }
    let step = (positions.len() / wanted.max(1)).max(1);
    Ok(positions.into_iter().step_by(step).take(wanted).collect())
}

/// How often the bot plays the move the players of real games played, in
/// positions where there was a choice: a rough proxy of its judgement.
fn agreement_command(args: &[String], out: &mut dyn Write) -> Result<i32, UsageError> {
    let (files, named) =
        options(args, &["positions", "level", "eval", "weights", "probcut", "pruning", "tables", "two-slot", "nodes"])?;
    if files.is_empty() {
        return Err(UsageError("agreement takes PDN files to draw positions from".into()));
    }
    let wanted: usize = number_or(&named, "positions", 300)?;
    let level: Level = value(&named, "level").unwrap_or("fort").parse()?;
    let mut limits = with_search_options(level.limits(), &named, None)?;
    if let Some(nodes) = value(&named, "nodes") {
        limits = Limits { nodes: number("nodes", nodes)?, ..limits };
    }
    let choices: Vec<_> =
        positions_of_games(&files, wanted)?.into_iter().filter(|(p, _)| p.legal_moves().len() > 1).collect();
    let started = Instant::now();
    let agreed = choices
        .iter()
        .filter(|(pos, played)| {
            let result = bot::search(pos, DrawCounters::default(), &limits).expect("positions with a move");
            result.best_moves[0] == *played
        })
        .count();
    writeln!(
        out,
        "{level} ({} evaluation, {} nodes): the move played in {agreed} of {} positions with a choice, {:.1} %, in {:.0} s",
        limits.eval.name(),
        limits.nodes,
        choices.len(),
        agreed as f64 / choices.len().max(1) as f64 * 100.0,
        started.elapsed().as_secs_f64()
    )?;
    Ok(0)
}

fn bench_command(args: &[String], out: &mut dyn Write) -> Result<i32, UsageError> {
    let (files, named) = options(args, &["positions"])?;
    if files.is_empty() {
        return Err(UsageError("bench takes PDN files to draw positions from".into()));
    }
    let wanted: usize = named.first().map(|(n, v)| number(n, v)).transpose()?.unwrap_or(300);
    let sample: Vec<Position> = positions_of_games(&files, wanted)?.into_iter().map(|(p, _)| p).collect();
    for level in Level::ALL {
        let limits = level.limits();
        let mut times = Vec::with_capacity(sample.len());
        let mut nodes = 0u64;
        let started = Instant::now();
        for pos in &sample {
            let t = Instant::now();
            let result = bot::search(pos, DrawCounters::default(), &limits).expect("positions with a move");
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            nodes += result.nodes;
        }
        let total = started.elapsed().as_secs_f64();
        times.sort_by(|a, b| a.total_cmp(b));
        let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
        writeln!(
            out,
            "{level}: {} positions, reply p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {:.2} M nodes/s",
            times.len(),
            pct(0.5),
            pct(0.99),
            times[times.len() - 1],
            nodes as f64 / total / 1e6
        )?;
    }
    let limits = Level::Fort.limits();
    let started = Instant::now();
    let result = bot::search(&Position::start(), DrawCounters::default(), &limits).expect("the start has moves");
    let seconds = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "fort from the start: depth {} nodes {} in {:.0} ms, {:.2} M nodes/s",
        result.depth,
        result.nodes,
        seconds * 1000.0,
        result.nodes as f64 / seconds / 1e6
    )?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(args: &[&str]) -> (Option<i32>, String, String) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(&args, &mut out, &mut err);
        (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
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
        let args =
            ["selfplay", "--white", "2", "--black", "1", "--games", "4", "--threads", "2", "--black-nodes", "500"];
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
        assert!(Weights::read(&std::fs::read(&phased).unwrap()).is_ok());
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
}
