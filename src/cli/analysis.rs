//! `dames analyse`: a game of a PDN file analysed by the engine, as a table
//! of its plies and a summary per side, or as JSON.

use super::{pdn_text, RulesOption, UsageError};
use crate::engine::analysis::{analyse, Analysis, NodeBudget, PlyAnalysis, SideSummary, Verdict};
use crate::engine::any::AnyGame;
use crate::engine::pdn::{parse_pdn, replay_any, PdnGame};
use crate::engine::{Color, Rules};
use clap::{value_parser, Args};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// `dames analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// A PDN file; the game is analysed under the rules its GameType or Rules tag names (--rules for a game without
    /// either)
    #[arg(value_name = "FILE.pdn")]
    file: PathBuf,
    /// Which game of the file, from 1
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = value_parser!(u32).range(1..))]
    game: u32,
    /// Nodes searched in each position (the same analysis on every machine)
    #[arg(
        long,
        value_name = "N",
        default_value_t = NodeBudget::DEFAULT.get(),
        value_parser = value_parser!(u64).range(NodeBudget::MIN..=NodeBudget::MAX),
    )]
    nodes: u64,
    /// The analysis as JSON rather than a table
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RulesOption,
}

impl AnalyseArgs {
    pub fn run(self, out: &mut dyn Write) -> Result<i32, UsageError> {
        let name = self.file.display();
        let text = pdn_text(&self.file).map_err(|e| UsageError(format!("cannot read {name}: {e}")))?;
        let games = parse_pdn(&text);
        let pdn = games
            .get(self.game as usize - 1)
            .ok_or_else(|| UsageError(format!("{name} has {} games, not a game {}", games.len(), self.game)))?;
        let game = game_of(pdn, self.rules.rules).map_err(|e| UsageError(format!("{name}:{}: {e}", self.game)))?;
        let budget = NodeBudget::new(self.nodes)?;
        let started = Instant::now();
        let analysis = analyse(&game, budget, |_| {})?;
        if self.json {
            writeln!(out, "{}", serde_json::to_string_pretty(&analysis)?)?;
        } else {
            print_table(out, pdn, &analysis, started.elapsed().as_millis())?;
        }
        Ok(0)
    }
}

/// A PDN game replayed under the rules its tags name (`default` without
/// them), on their board.
fn game_of(pdn: &PdnGame, default: Rules) -> Result<AnyGame, String> {
    replay_any(pdn, default).map_err(|(_, why)| why)
}

fn print_table(out: &mut dyn Write, pdn: &PdnGame, analysis: &Analysis, millis: u128) -> std::io::Result<()> {
    if let (Some(white), Some(black)) = (pdn.tag("White"), pdn.tag("Black")) {
        writeln!(out, "{white} – {black}")?;
    }
    writeln!(out, "rules {} nodes {} a position", analysis.rules, analysis.budget.get())?;
    writeln!(out, "{:<7} {:<10} {:>6}  {:<10} {:>5}  verdict", "ply", "move", "eval", "best", "loss")?;
    for ply in &analysis.plies {
        writeln!(out, "{}", ply_line(ply, analysis.rules.first))?;
    }
    writeln!(out, "{:<7} {:<10} {:>6}", "end", "", format!("{:+}", analysis.end.men))?;
    for side in [Color::White, Color::Black] {
        writeln!(out, "{side}: {}", summary_line(analysis.summary(side)))?;
    }
    writeln!(out, "nodes {} time_ms {millis}", analysis.nodes)
}

/// One ply: its number (`12.` for the move of `first`, the side the rules
/// have start, `12...` for the other's), the move, the evaluation before
/// it, the engine's move, the loss and the verdict.
fn ply_line(ply: &PlyAnalysis, first: Color) -> String {
    let number = if ply.mover == first { format!("{}.", ply.number) } else { format!("{}...", ply.number) };
    let verdict = match (ply.forced, ply.verdict) {
        (true, _) => "forced",
        (false, Some(v)) => v.name(),
        (false, None) => "",
    };
    let eval = format!("{:+}", ply.eval.men);
    let line = format!(
        "{number:<7} {:<10} {eval:>6}  {:<10} {:>5}  {verdict}",
        ply.played.text,
        ply.best.text,
        ply.loss.to_string()
    );
    line.trim_end().to_string()
}

fn summary_line(summary: &SideSummary) -> String {
    let counts: Vec<String> = Verdict::ALL
        .iter()
        .map(|&v| {
            let n = summary.count(v);
            let plural = match v {
                Verdict::Inaccuracy if n != 1 => "inaccuracies".to_string(),
                _ if n != 1 => format!("{}s", v.name()),
                _ => v.name().to_string(),
            };
            format!("{n} {plural}")
        })
        .collect();
    let moves = if summary.moves == 1 { "move" } else { "moves" };
    format!(
        "{} {moves} ({} judged), {}, average loss {}",
        summary.moves,
        summary.judged,
        counts.join(", "),
        summary.average_loss
    )
}
