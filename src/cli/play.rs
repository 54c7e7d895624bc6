//! The subcommands that play: `hub` (the Hub protocol) and `selfplay` (a
//! match between two levels, its games on threads), with the options of
//! one player of a match that `dames match` shares.

use super::{RulesOption, SearchOptions, UsageError};
use crate::engine::any::AnyPosition;
use crate::engine::bot::{self, Level};
use crate::engine::eval::Evaluation;
use crate::engine::geometry::Geometry;
use crate::engine::hub::Hub;
use crate::engine::pdn::write_pdn;
use crate::engine::search::{DrawCounters, Limits};
use crate::engine::{Color, Game, Outcome, Position};
use crate::matches::score::{Tally, Verdict};
use crate::matches::{describe, first_players_color, openings, verdict};
use clap::builder::RangedU64ValueParser;
use clap::{value_parser, Args};
use std::io::Write;
use std::path::PathBuf;

/// `dames hub`: the Hub protocol on stdin and stdout.
pub fn hub() -> Result<i32, UsageError> {
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

/// `dames selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The first player's level (White in the odd games): debutant, intermediaire, fort, or a step of the
    /// electronic board's ladder, 1 (a beginner's opponent) to 8 (the strongest)
    #[arg(long, value_name = "LEVEL")]
    white: Level,
    /// The second player's level (White in the even games)
    #[arg(long, value_name = "LEVEL")]
    black: Level,
    /// Games played, 1 to 10000: each two-ply opening twice, once with each player as White
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(1..=10_000))]
    games: u32,
    /// The match from its game K on (the games before it skipped, each game being the same whenever it is played: a
    /// match cut short goes on)
    #[arg(long, value_name = "K", default_value_t = 1)]
    from: u32,
    /// The seed of the openings' order and of the draw among moves judged equal
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    rules: RulesOption,
    /// Games played side by side, 1 to 64 (the same games whatever the threads)
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=64))]
    threads: usize,
    /// A file the games are written to, in PDN, as they end (each side named by its level and its limits)
    #[arg(long, value_name = "FILE")]
    pdn: Option<PathBuf>,
    #[command(flatten)]
    search: SearchOptions,
    /// Each move's node budget (at least 1), instead of the level's
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// The transposition table's size, log2 of its entries (8 to 26): how much a budget suffers from a table it
    /// overfills
    #[arg(long = "table-bits", value_name = "B", value_parser = value_parser!(u32).range(8..=26))]
    table_bits: Option<u32>,
    #[command(flatten, next_help_heading = "The first player's own options (before the match's)")]
    white_own: WhiteOptions,
    #[command(flatten, next_help_heading = "The second player's own options (before the match's)")]
    black_own: BlackOptions,
}

/// What one player of a match asks for, its own or the match's.
pub(super) struct PlayerOptions {
    pub(super) search: SearchOptions,
    pub(super) nodes: Option<u64>,
    pub(super) table_bits: Option<u32>,
}

impl PlayerOptions {
    /// The limits of `level` with what this player asks for, or where it
    /// asks nothing, what the match asks for all (`match_`).
    pub(super) fn limits(self, level: Level, match_: &PlayerOptions) -> Result<Limits, UsageError> {
        let limits = self.search.or(&match_.search).apply(level.limits())?;
        let nodes = self.nodes.or(match_.nodes).unwrap_or(limits.nodes);
        let table_bits = self.table_bits.or(match_.table_bits).unwrap_or(limits.table_bits);
        Ok(Limits { nodes, table_bits, ..limits })
    }
}

/// The options of one player (`--white-eval` …), with the same meaning as
/// the match's (`--eval` …), which they override for that player.
macro_rules! player_options {
    ($name:ident, $side:literal) => {
        #[derive(Args, Debug)]
        pub(super) struct $name {
            #[arg(id = concat!($side, "-eval"), long, value_name = "E", help = concat!("--eval for the --", $side, " player"))]
            eval: Option<Evaluation>,
            #[arg(id = concat!($side, "-weights"), long, value_name = "FILE", help = concat!("--weights for the --", $side, " player"))]
            weights: Option<PathBuf>,
            #[arg(id = concat!($side, "-probcut"), long, value_name = "0|1", value_parser = super::switch,
                  help = concat!("--probcut for the --", $side, " player"))]
            probcut: Option<bool>,
            #[arg(id = concat!($side, "-pruning"), long, value_name = "0|1", value_parser = super::switch,
                  help = concat!("--pruning for the --", $side, " player"))]
            pruning: Option<bool>,
            #[arg(id = concat!($side, "-tables"), long, value_name = "0|1", value_parser = super::switch,
                  help = concat!("--tables for the --", $side, " player"))]
            tables: Option<bool>,
            #[arg(id = concat!($side, "-two-slot"), long, value_name = "0|1", value_parser = super::switch,
                  help = concat!("--two-slot for the --", $side, " player"))]
            two_slot: Option<bool>,
            #[arg(id = concat!($side, "-reductions"), long, value_name = "0|1", value_parser = super::switch,
                  help = concat!("--reductions for the --", $side, " player"))]
            reductions: Option<bool>,
            #[arg(id = concat!($side, "-exchanges"), long, value_name = "0|1", value_parser = super::switch,
                  help = concat!("--exchanges for the --", $side, " player"))]
            exchanges: Option<bool>,
            #[arg(id = concat!($side, "-nodes"), long, value_name = "N", value_parser = value_parser!(u64).range(1..),
                  help = concat!("--nodes for the --", $side, " player"))]
            nodes: Option<u64>,
            #[arg(id = concat!($side, "-table-bits"), long, value_name = "B",
                  value_parser = value_parser!(u32).range(8..=26), help = concat!("--table-bits for the --", $side, " player"))]
            table_bits: Option<u32>,
        }

        impl $name {
            pub(super) fn options(&self) -> PlayerOptions {
                PlayerOptions {
                    search: SearchOptions {
                        eval: self.eval,
                        weights: self.weights.clone(),
                        probcut: self.probcut,
                        pruning: self.pruning,
                        tables: self.tables,
                        two_slot: self.two_slot,
                        reductions: self.reductions,
                        exchanges: self.exchanges,
                    },
                    nodes: self.nodes,
                    table_bits: self.table_bits,
                }
            }
        }
    };
}

player_options!(WhiteOptions, "white");
player_options!(BlackOptions, "black");

impl SelfplayArgs {
    pub fn run(self, out: &mut dyn Write) -> Result<i32, UsageError> {
        // The games before this one are skipped: a match cut short goes on
        // where it stopped, each game being the same whenever it is played.
        if !(1..=self.games).contains(&self.from) {
            return Err(UsageError("--from must be from 1 to the number of games".into()));
        }
        // Each player's evaluation, search switches, node budget and table,
        // when not its level's: its own option before the match's.
        let all = PlayerOptions { search: self.search.clone(), nodes: self.nodes, table_bits: self.table_bits };
        let players = [
            (self.white, self.white_own.options().limits(self.white, &all)?),
            (self.black, self.black_own.options().limits(self.black, &all)?),
        ];
        let match_ = Match {
            players,
            games: (self.from - 1)..self.games,
            seed: self.seed,
            threads: self.threads,
            pdn: self.pdn,
        };
        match AnyPosition::initial(self.rules.rules)? {
            AnyPosition::Eight(p) => match_.play(p, out),
            AnyPosition::Ten(p) => match_.play(p, out),
            AnyPosition::Twelve(p) => match_.play(p, out),
        }
    }
}

/// The two-ply openings from the start (81 in international draughts, 49 in
/// English), in a seeded order: each is played twice, once with each level
/// as White.
fn two_ply_openings<G: Geometry>(start: Position<G>, seed: u64) -> Vec<Game<G>> {
    let mut games = openings::sequences(&Game::new(start), 2);
    openings::shuffle(&mut games, seed);
    games
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
    pdn: Option<PathBuf>,
}

impl Match {
    fn play<G: Geometry>(&self, start: Position<G>, out: &mut dyn Write) -> Result<i32, UsageError> {
        let book = two_ply_openings(start, self.seed);
        let mut tally = Tally::default();
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
                tally.add(verdict);
                let first_color = first_players_color(i);
                let word = verdict.word();
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
        writeln!(out, "{} vs {}: {tally}", self.players[0].0, self.players[1].0)?;
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
        let name = |(level, limits): (Level, Limits)| describe(level, &limits);
        let (first, second) = (name(self.players[0]), name(self.players[1]));
        let (white, black) = match first_players_color(i) {
            Color::White => (first, second),
            Color::Black => (second, first),
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
        (verdict(game.outcome().expect("finished"), first_color), game)
    }
}
