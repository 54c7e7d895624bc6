//! `dames match`: a match of international draughts between two players,
//! each either `dames` in this process at a level or an engine in another
//! process speaking a Hub protocol (Scan 2.0 the first, `dames hub` the
//! second), from openings played with both colours, its games side by side
//! on threads: each game as it ends, then the score from the first
//! player's side with its 95 % interval and Elo, and each player's time a
//! move, restarts and illegal moves.

use super::play::{BlackOptions, PlayerOptions, WhiteOptions};
use super::{SearchOptions, UsageError};
use crate::engine::bot::Level;
use crate::engine::pdn::write_pdn;
use crate::engine::search::Limits;
use crate::engine::{Color, Game};
use crate::matches::external::{Budget, Engine, EngineSpec, Protocol};
use crate::matches::score::Tally;
use crate::matches::{first_players_color, openings, play_game, Ours, Played, Player, SideRecord};
use clap::builder::RangedU64ValueParser;
use clap::{value_parser, Args};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

/// `dames match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Games played, 1 to 10000: each opening twice, once with each player as White (the openings start again when
    /// there are fewer)
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(1..=10_000))]
    games: u32,
    /// The match from its game K on (the games before it skipped: a match cut short goes on)
    #[arg(long, value_name = "K", default_value_t = 1)]
    from: u32,
    /// The seed of the built-in openings' order and of the draw among moves dames judges equal
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Openings from FILE, in its order: one a line, moves from the start in PDN (32-28 18-23) or a FEN; blank lines
    /// and lines starting with # skipped
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Without --openings: the built-in openings of 2 plies (one move each) or 3 (and White's next), the balanced
    /// ones (a search of 20,000 nodes finds neither side a third of a man ahead) in the order the seed draws
    #[arg(long = "opening-plies", value_name = "2|3", default_value_t = 2, conflicts_with = "openings",
          value_parser = value_parser!(u32).range(2..=3))]
    opening_plies: u32,
    /// Games played side by side, 1 to 64 (dames plays the same games whatever the threads); each engine in another
    /// process runs once a thread
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=64))]
    threads: usize,
    /// A file the games are written to, in PDN, as they end (players, opening, result, and what ended a forfeited
    /// game)
    #[arg(long, value_name = "FILE")]
    pdn: Option<PathBuf>,
    /// The match's options for both players that dames plays in this process (each player's own come first)
    #[command(flatten)]
    search: SearchOptions,
    /// Each move's node budget (at least 1) for both players that dames plays in this process
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// The transposition table's size, log2 of its entries (8 to 26), for both players that dames plays in this
    /// process
    #[arg(long = "table-bits", value_name = "B", value_parser = value_parser!(u32).range(8..=26))]
    table_bits: Option<u32>,
    #[command(flatten, next_help_heading = "The first player (White in the odd games; the score is its)")]
    white: WhiteSide,
    #[command(flatten, next_help_heading = "The second player")]
    black: BlackSide,
}

/// `dames openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// The built-in openings of 2 plies (one move each) or 3 (and White's next)
    #[arg(long, value_name = "2|3", default_value_t = 2, value_parser = value_parser!(u32).range(2..=3))]
    plies: u32,
    /// The seed of their order, as dames match --seed draws it
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Leaves out the openings of FILE (read as dames match --openings reads it): a test set kept apart from
    /// training games
    #[arg(long, value_name = "FILE")]
    except: Option<PathBuf>,
    /// Threads the balance searches run on, 1 to 64 (the list is the same whatever the threads)
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=64))]
    threads: usize,
}

impl OpeningsArgs {
    /// Writes the openings `dames match --opening-plies P --seed S` plays, in
    /// its order, one a line as `--openings` reads them: a match's training
    /// openings listed without playing it.
    pub fn run(self, out: &mut dyn Write) -> Result<i32, UsageError> {
        let left_out: Vec<String> = match &self.except {
            Some(path) => read_openings(path)?.iter().map(openings::describe).collect(),
            None => Vec::new(),
        };
        for opening in openings::built_in(self.plies, self.seed, self.threads) {
            let line = openings::describe(&opening);
            if !left_out.contains(&line) {
                writeln!(out, "{line}")?;
            }
        }
        Ok(0)
    }
}

/// The openings of the file at `path`, or why it cannot be read.
fn read_openings(path: &std::path::Path) -> Result<Vec<Game>, UsageError> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| UsageError(format!("cannot read {name}: {e}")))?;
    openings::read(&text).map_err(|why| UsageError(format!("{name}: {why}")))
}

/// What one side of a match is asked to be, as given on the command line.
struct SideArgs {
    /// `white` or `black`, for the messages.
    side: &'static str,
    level: Option<Level>,
    engine: Option<String>,
    protocol: Option<Protocol>,
    engine_dir: Option<PathBuf>,
    time: Option<u64>,
    depth: Option<u32>,
    settings: Vec<String>,
    own: PlayerOptions,
}

/// The options of one side (`--white`, `--white-engine` …).
macro_rules! side_options {
    ($name:ident, $own:ident, $side:literal) => {
        #[derive(Args, Debug)]
        struct $name {
            #[arg(id = $side, long, value_name = "LEVEL", conflicts_with = concat!($side, "-engine"),
                  required_unless_present = concat!($side, "-engine"),
                  help = concat!("The --", $side, " player is dames in this process at LEVEL: debutant, intermediaire, \
                                  fort, or a step of the electronic board's ladder, 1 to 8"))]
            level: Option<Level>,
            #[arg(id = concat!($side, "-engine"), long, value_name = "COMMAND",
                  help = concat!("The --", $side, " player is an engine in another process, started with COMMAND (a \
                                  program and its arguments, split at spaces: \"/opt/scan2/scan hub\")"))]
            engine: Option<String>,
            #[arg(id = concat!($side, "-protocol"), long, value_name = "hub1|hub2",
                  help = concat!("The protocol the --", $side, "-engine speaks: hub1, Scan 2.0's (the default), or \
                                  hub2, dames hub's"))]
            protocol: Option<Protocol>,
            #[arg(id = concat!($side, "-engine-dir"), long, value_name = "DIR",
                  help = concat!("The folder the --", $side, "-engine runs in (Scan reads scan.ini and data/ there); \
                                  its program's folder by default"))]
            engine_dir: Option<PathBuf>,
            #[arg(id = concat!($side, "-time"), long, value_name = "MS",
                  value_parser = value_parser!(u64).range(1..=3_600_000),
                  help = concat!("The --", $side, "-engine's time a move in milliseconds (100 when no budget is \
                                  given; it counts as hung after ten times this and 2 s more, and is restarted)"))]
            time: Option<u64>,
            #[arg(id = concat!($side, "-depth"), long, value_name = "D", value_parser = value_parser!(u32).range(1..=64),
                  help = concat!("The --", $side, " player's depth a move, instead of a time or a node budget"))]
            depth: Option<u32>,
            #[arg(id = concat!($side, "-set"), long, value_name = "NAME=VALUE",
                  help = concat!("A setting sent to the --", $side, "-engine before init, as often as needed (hub1: \
                                  set NAME VALUE, after set book false and set threads 1; hub2: set-param)"))]
            set: Vec<String>,
            #[command(flatten)]
            own: $own,
        }

        impl $name {
            fn side(&self) -> SideArgs {
                SideArgs {
                    side: $side,
                    level: self.level,
                    engine: self.engine.clone(),
                    protocol: self.protocol,
                    engine_dir: self.engine_dir.clone(),
                    time: self.time,
                    depth: self.depth,
                    settings: self.set.clone(),
                    own: self.own.options(),
                }
            }
        }
    };
}

side_options!(WhiteSide, WhiteOptions, "white");
side_options!(BlackSide, BlackOptions, "black");

/// A side of the match, checked: dames at a level with its limits, or an
/// engine to start.
enum SideSpec {
    Ours(Ours),
    Engine(EngineSpec),
}

impl SideArgs {
    fn spec(self, all: &PlayerOptions) -> Result<SideSpec, UsageError> {
        let side = self.side;
        match (self.level, self.engine) {
            (Some(level), None) => {
                let engine_only = [
                    ("time", self.time.is_some()),
                    ("protocol", self.protocol.is_some()),
                    ("engine-dir", self.engine_dir.is_some()),
                    ("set", !self.settings.is_empty()),
                ];
                if let Some((option, _)) = engine_only.iter().find(|(_, given)| *given) {
                    return Err(UsageError(format!(
                        "--{side}-{option} is for an engine in another process (--{side}-engine); dames in this process \
                         plays by nodes (--{side}-nodes), the same moves whatever the machine's load"
                    )));
                }
                let nodes_given = self.own.nodes.or(all.nodes).is_some();
                let limits = self.own.limits(level, all)?;
                let limits = match self.depth {
                    Some(depth) if nodes_given => Limits { depth, ..limits },
                    Some(depth) => Limits { depth, nodes: u64::MAX, ..limits },
                    None => limits,
                };
                Ok(SideSpec::Ours(Ours { level, limits }))
            }
            (None, Some(command)) => {
                let search = &self.own.search;
                let ours_only = [
                    ("eval", search.eval.is_some()),
                    ("weights", search.weights.is_some()),
                    ("probcut", search.probcut.is_some()),
                    ("pruning", search.pruning.is_some()),
                    ("tables", search.tables.is_some()),
                    ("two-slot", search.two_slot.is_some()),
                    ("reductions", search.reductions.is_some()),
                    ("exchanges", search.exchanges.is_some()),
                    ("table-bits", self.own.table_bits.is_some()),
                ];
                if let Some((option, _)) = ours_only.iter().find(|(_, given)| *given) {
                    return Err(UsageError(format!("--{side}-{option} is for dames in this process (--{side} LEVEL)")));
                }
                let budget = match (self.time, self.depth, self.own.nodes) {
                    (None, None, None) => Budget::Time(100),
                    (Some(ms), None, None) => Budget::Time(ms),
                    (None, Some(depth), None) => Budget::Depth(depth),
                    (None, None, Some(nodes)) => Budget::Nodes(nodes),
                    _ => {
                        return Err(UsageError(format!(
                            "give the --{side}-engine one budget: --{side}-time, --{side}-depth or --{side}-nodes"
                        )))
                    }
                };
                let protocol = self.protocol.unwrap_or(Protocol::Hub1);
                protocol.budget_line(budget).map_err(|why| UsageError(format!("--{side}-engine: {why}")))?;
                let command: Vec<String> = command.split_whitespace().map(str::to_string).collect();
                if command.is_empty() {
                    return Err(UsageError(format!("--{side}-engine names no program")));
                }
                let settings = self
                    .settings
                    .iter()
                    .map(|s| match s.split_once('=') {
                        Some((name, value)) if !name.trim().is_empty() => {
                            Ok((name.trim().to_string(), value.trim().to_string()))
                        }
                        _ => Err(UsageError(format!("--{side}-set takes NAME=VALUE, not {s:?}"))),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(SideSpec::Engine(EngineSpec { command, dir: self.engine_dir, protocol, budget, settings }))
            }
            // Clap requires exactly one of the two.
            _ => Err(UsageError(format!("give --{side} LEVEL or --{side}-engine COMMAND"))),
        }
    }
}

/// The players of one side, one for each game being played: the idle ones
/// wait here between games (an engine keeps its process).
struct Seat {
    spec: SideSpec,
    idle: Mutex<Vec<Box<dyn Player>>>,
    /// Its short name, for the report.
    name: String,
    /// Its name with its budget, for the games' records.
    described: String,
}

impl Seat {
    /// The seat of `spec`, whose engine, if any, is started once now: a
    /// command that does not start is bad input, found before any game.
    fn new(spec: SideSpec, side: &str) -> Result<Seat, UsageError> {
        let first: Box<dyn Player> = match &spec {
            SideSpec::Ours(ours) => Box::new(ours.clone()),
            SideSpec::Engine(engine) => {
                let mut engine = Engine::new(engine.clone());
                engine.start().map_err(|why| UsageError(format!("the --{side}-engine: {why}")))?;
                Box::new(engine)
            }
        };
        let (name, described) = (first.name(), first.describe());
        Ok(Seat { spec, idle: Mutex::new(vec![first]), name, described })
    }

    fn take(&self) -> Box<dyn Player> {
        let idle = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        idle.unwrap_or_else(|| match &self.spec {
            SideSpec::Ours(ours) => Box::new(ours.clone()),
            // Started at its first move; one that does not start then
            // forfeits its game.
            SideSpec::Engine(engine) => Box::new(Engine::new(engine.clone())),
        })
    }

    fn give_back(&self, player: Box<dyn Player>) {
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(player);
        }
    }
}

impl MatchArgs {
    pub fn run(self, out: &mut dyn Write) -> Result<i32, UsageError> {
        if !(1..=self.games).contains(&self.from) {
            return Err(UsageError("--from must be from 1 to the number of games".into()));
        }
        let all = PlayerOptions { search: self.search.clone(), nodes: self.nodes, table_bits: self.table_bits };
        let first = self.white.side().spec(&all)?;
        let second = self.black.side().spec(&all)?;
        let (book, source) = match &self.openings {
            Some(path) => (read_openings(path)?, format!("from {}", path.display())),
            None => {
                let book = openings::built_in(self.opening_plies, self.seed, self.threads);
                (book, format!("balanced {}-ply, seed {}", self.opening_plies, self.seed))
            }
        };
        let mut pdn = match &self.pdn {
            Some(path) => Some(std::io::BufWriter::new(
                std::fs::File::create(path).map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))?,
            )),
            None => None,
        };
        let seats = [Seat::new(first, "white")?, Seat::new(second, "black")?];
        let names = [seats[0].name.as_str(), seats[1].name.as_str()];
        writeln!(
            out,
            "{} vs {}: games {} to {}, {} openings ({source})",
            seats[0].described,
            seats[1].described,
            self.from,
            self.games,
            book.len()
        )?;
        let mut tally = Tally::default();
        let mut totals = [SideRecord::default(); 2];
        let first_game = self.from as usize - 1;
        crate::parallel::in_order(
            self.games as usize - first_game,
            self.threads,
            |i| {
                let i = first_game + i;
                let mut players = [seats[0].take(), seats[1].take()];
                let [a, b] = &mut players;
                let opening = &book[(i / 2) % book.len()];
                let played = play_game(opening, first_players_color(i), [a.as_mut(), b.as_mut()], self.seed ^ i as u64);
                let [a, b] = players;
                seats[0].give_back(a);
                seats[1].give_back(b);
                (played, opening)
            },
            |i, (played, opening)| {
                let i = first_game + i;
                tally.add(played.verdict);
                totals[0].add(&played.sides[0]);
                totals[1].add(&played.sides[1]);
                if let Some(file) = pdn.as_mut() {
                    write_game(file, i, &played, opening, [&seats[0].described, &seats[1].described], self.seed)?;
                    file.flush()?;
                }
                writeln!(out, "{}", game_line(i, &played, opening, names))
            },
        )?;
        writeln!(out, "{} vs {}: {tally}", names[0], names[1])?;
        for (name, total) in names.iter().zip(&totals) {
            writeln!(
                out,
                "{name}: {:.0} ms a move over {} moves, {} restarts, {} illegal moves, {} moves not given",
                total.ms_a_move(),
                total.moves,
                total.restarts,
                total.illegal,
                total.failed
            )?;
        }
        Ok(0)
    }
}

/// The line of game `i` (from 0) as it ends: `game 3 fort as White: win in
/// 87 plies (White wins (NoPieces)); opening 32-28 18-23; 61 / 83 ms a move`,
/// then the restarts and what ended a forfeited game.
fn game_line(i: usize, played: &Played, opening: &Game, names: [&str; 2]) -> String {
    let outcome = played.game.outcome().map_or_else(|| "unfinished".to_string(), |o| o.to_string());
    let [first, second] = played.sides;
    let mut line = format!(
        "game {} {} as {}: {} in {} plies ({outcome}); opening {}; {:.0} / {:.0} ms a move",
        i + 1,
        names[0],
        played.first_color,
        played.verdict.word(),
        played.game.moves().len(),
        openings::describe(opening),
        first.ms_a_move(),
        second.ms_a_move(),
    );
    for (name, side) in names.iter().zip(&played.sides) {
        if side.restarts > 0 {
            line.push_str(&format!("; {name} restarted {} times", side.restarts));
        }
    }
    if let Some(why) = &played.forfeit {
        line.push_str(&format!("; forfeit: {why}"));
    }
    line
}

/// Game `i` as PDN: the players with their budgets, the opening, the
/// result, and what ended a forfeited game.
fn write_game(
    file: &mut dyn Write,
    i: usize,
    played: &Played,
    opening: &Game,
    described: [&str; 2],
    seed: u64,
) -> std::io::Result<()> {
    let (white, black) = match played.first_color {
        Color::White => (described[0], described[1]),
        Color::Black => (described[1], described[0]),
    };
    let round = (i + 1).to_string();
    let seed = seed.to_string();
    let opening = openings::describe(opening);
    let result = played.game.outcome().map_or("*", |o| o.pdn_result());
    let mut tags = vec![
        ("Event", "dames match"),
        ("Round", round.as_str()),
        ("Seed", seed.as_str()),
        ("White", white),
        ("Black", black),
        ("Opening", opening.as_str()),
        ("Result", result),
    ];
    if let Some(why) = &played.forfeit {
        tags.push(("Termination", why.as_str()));
    }
    writeln!(file, "{}", write_pdn(&played.game, &tags, result))
}
