//! The engine's subcommands: `perft`, `moves`, `replay`, `bestmove` and
//! `endgame`, with their arguments.

use super::{parse_any_position, pdn_text, RulesOption, SearchOptions, UsageError};
use crate::engine::any::AnyPosition;
use crate::engine::bot::{self, Level};
use crate::engine::endgame::{self, Verdict as TableVerdict};
use crate::engine::geometry::{Eight, Geometry, Ten};
use crate::engine::pdn::{parse_pdn, PdnGame};
use crate::engine::search::{DrawCounters, Limits};
use crate::engine::{move_to_text, Position, Rules};
use clap::{value_parser, Args, FromArgMatches};
use clap::{Arg, ArgMatches};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// The deepest perft the command accepts: deeper runs would not end in a
/// lifetime.
const MAX_PERFT_DEPTH: u32 = 20;

/// `dames perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The position: a FEN, or start (the rule set's start position)
    #[arg(value_name = "FEN|start")]
    position: String,
    /// The deepest depth counted, 1 to 20: one line for each depth from 1
    #[arg(value_name = "DEPTH", value_parser = value_parser!(u32).range(1..=i64::from(MAX_PERFT_DEPTH)))]
    depth: u32,
    /// The positions each move leads to at DEPTH, one line a move, then the total
    #[arg(long)]
    divide: bool,
    #[command(flatten)]
    rules: RulesOption,
}

impl PerftArgs {
    pub fn run(self, out: &mut dyn Write) -> Result<i32, UsageError> {
        let pos = parse_any_position(&self.position, self.rules.rules)?;
        let depth = self.depth;
        if self.divide {
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
}

fn print_perft_line(out: &mut dyn Write, depth: u32, nodes: u64, started: Instant) -> std::io::Result<()> {
    let seconds = started.elapsed().as_secs_f64();
    let mnps = if seconds > 0.0 { nodes as f64 / seconds / 1e6 } else { 0.0 };
    writeln!(out, "depth {depth} nodes {nodes} time_ms {} mnps {mnps:.1}", (seconds * 1000.0).round() as u64)
}

/// `dames moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The position: a FEN, or start (the rule set's start position)
    #[arg(value_name = "FEN|start")]
    position: String,
    #[command(flatten)]
    rules: RulesOption,
}

impl MovesArgs {
    pub fn run(self, out: &mut dyn Write) -> Result<i32, UsageError> {
        for text in parse_any_position(&self.position, self.rules.rules)?.legal_move_texts() {
            writeln!(out, "{text}")?;
        }
        Ok(0)
    }
}

/// `dames replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// PDN files; each game is replayed under the rules its GameType or Rules tag names (--rules for games without
    /// either)
    #[arg(value_name = "FILE.pdn", required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    rules: RulesOption,
}

impl ReplayArgs {
    /// The exit status: 1 when a game does not replay.
    pub fn run(self, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
        let (mut games, mut failed) = (0, 0);
        for file in &self.files {
            let text = match pdn_text(file) {
                Ok(text) => text,
                Err(e) => {
                    let _ = writeln!(err, "dames: cannot read {}: {e}", file.display());
                    return 2;
                }
            };
            for (i, pdn) in parse_pdn(&text).iter().enumerate() {
                games += 1;
                let line = match replay_any(pdn, self.rules.rules) {
                    Ok(plies) => format!("ok {plies}"),
                    Err((ply, e)) => {
                        failed += 1;
                        format!("error {}:{} {ply}: {e}", file.display(), i + 1)
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
}

/// Replays a PDN game under the rules its tags name (`default` when none),
/// on their board: its plies, or the ply where it failed and why.
fn replay_any(pdn: &PdnGame, default: Rules) -> Result<usize, (usize, String)> {
    crate::engine::pdn::replay_any(pdn, default).map(|game| game.ply_count())
}

/// `dames bestmove`.
#[derive(Args, Debug)]
pub struct BestmoveArgs {
    /// The position: a FEN, or start (the rule set's start position)
    #[arg(value_name = "FEN|start")]
    position: String,
    #[command(flatten)]
    budget: Budget,
    #[command(flatten)]
    search: SearchOptions,
    /// The seed of the draw among moves judged equal
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    rules: RulesOption,
}

impl BestmoveArgs {
    pub fn run(self, out: &mut dyn Write) -> Result<i32, UsageError> {
        let pos = parse_any_position(&self.position, self.rules.rules)?;
        let limits = self.search.apply(self.budget.limits())?;
        match pos {
            AnyPosition::Eight(p) => print_bestmove(&p, &limits, self.seed, out),
            AnyPosition::Ten(p) => print_bestmove(&p, &limits, self.seed, out),
            AnyPosition::Twelve(p) => print_bestmove(&p, &limits, self.seed, out),
        }
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

/// How far `bestmove` searches: `--level`, `--depth` and `--nodes` apply
/// in the order given (a level sets every limit, a depth or a node count
/// sets that budget alone), from the default level's limits. Clap's derive
/// does not keep the order of options, so this reads it from the matches.
#[derive(Debug, Clone, Default)]
struct Budget {
    steps: Vec<Step>,
}

#[derive(Debug, Clone, Copy)]
enum Step {
    Level(Level),
    Depth(u32),
    Nodes(u64),
}

impl Budget {
    fn limits(&self) -> Limits {
        self.steps.iter().fold(Level::default().limits(), |limits, step| match *step {
            Step::Level(level) => level.limits(),
            Step::Depth(depth) => Limits { depth, nodes: u64::MAX, ..limits },
            Step::Nodes(nodes) => Limits { depth: 64, nodes, ..limits },
        })
    }
}

impl FromArgMatches for Budget {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Budget, clap::Error> {
        let mut steps = Vec::new();
        let mut given = |id: &str, step: Option<Step>| {
            if let (Some(step), Some(index)) = (step, matches.index_of(id)) {
                steps.push((index, step));
            }
        };
        given("level", matches.get_one::<Level>("level").copied().map(Step::Level));
        given("depth", matches.get_one::<u32>("depth").copied().map(Step::Depth));
        given("nodes", matches.get_one::<u64>("nodes").copied().map(Step::Nodes));
        steps.sort_by_key(|&(index, _)| index);
        Ok(Budget { steps: steps.into_iter().map(|(_, step)| step).collect() })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Budget::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for Budget {
    fn augment_args(command: clap::Command) -> clap::Command {
        command
            .arg(Arg::new("level").long("level").value_name("LEVEL").value_parser(value_parser!(Level)).help(
                "The level whose limits the search has: debutant, intermediaire (the default), fort, or a \
                         step of the electronic board's ladder, 1 (a beginner's opponent) to 8 (the strongest); \
                         --level, --depth and --nodes apply in the order given",
            ))
            .arg(
                Arg::new("depth")
                    .long("depth")
                    .value_name("D")
                    .value_parser(value_parser!(u32).range(1..=64))
                    .help("A search to this depth (1 to 64) without a node limit"),
            )
            .arg(
                Arg::new("nodes")
                    .long("nodes")
                    .value_name("N")
                    .value_parser(value_parser!(u64).range(1..))
                    .help("A search of this many nodes (at least 1), as deep as they go"),
            )
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Budget::augment_args(command)
    }
}

/// `dames endgame`.
#[derive(Args, Debug)]
pub struct EndgameArgs {
    /// A position of at most three pieces, both sides on the board: its verdict; without one, what each material's
    /// table holds and how long computing them all took
    #[arg(value_name = "FEN")]
    position: Option<String>,
    #[command(flatten)]
    rules: RulesOption,
}

impl EndgameArgs {
    /// The exact endgame tables of a preset's moves: with a FEN (at most
    /// three pieces), its verdict; without, what each material's table
    /// holds and how long computing them all took.
    pub fn run(self, out: &mut dyn Write) -> Result<i32, UsageError> {
        let rules = self.rules.rules;
        let no_table = || UsageError(format!("no endgame table for {rules}: only the presets' moves have one"));
        let Some(fen) = self.position else {
            let started = Instant::now();
            let summary = match rules.size {
                8 => endgame::table_for::<Eight>(rules).map(|t| t.summary(rules)),
                10 => endgame::table_for::<Ten>(rules).map(|t| t.summary(rules)),
                _ => None,
            };
            for m in &summary.ok_or_else(no_table)? {
                writeln!(
                    out,
                    "{:<6} positions {:>7} won {:>7} lost {:>7} drawn {:>7} longest_win {}",
                    m.name, m.positions, m.won, m.lost, m.drawn, m.longest_win
                )?;
            }
            writeln!(out, "computed and counted in {} ms", started.elapsed().as_millis())?;
            return Ok(0);
        };
        let verdict = match parse_any_position(&fen, rules)? {
            AnyPosition::Eight(p) => endgame::table_for::<Eight>(rules).map(|t| t.probe(&p)),
            AnyPosition::Ten(p) => endgame::table_for::<Ten>(rules).map(|t| t.probe(&p)),
            AnyPosition::Twelve(_) => None,
        };
        let Some(verdict) = verdict.ok_or_else(no_table)? else {
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
        Ok(0)
    }
}
