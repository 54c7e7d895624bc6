//! The operator's subcommands (the `ssr` build only): `cluster` and
//! `loadtest`, whose work is in `crate::ops`, run on the binary's tokio
//! runtime.

use super::{on_runtime, UsageError};
use crate::engine::bot::Level;
use crate::ops::loadtest::Plan;
use clap::builder::RangedU64ValueParser;
use clap::{value_parser, Args};

/// `dames cluster`.
#[derive(Args, Debug)]
pub struct ClusterArgs {
    /// App servers started, 1 to 16, each on a free port of 127.0.0.1
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = RangedU64ValueParser::<usize>::new().range(1..=16))]
    servers: usize,
    /// The proxy's port on 127.0.0.1
    #[arg(long, value_name = "P", default_value_t = 8080)]
    port: u16,
}

impl ClusterArgs {
    /// Runs until Ctrl-C: 0, or 1 when the cluster failed.
    pub fn run(self) -> Result<i32, UsageError> {
        on_runtime(crate::ops::cluster::command(self.servers, self.port))
    }
}

/// `dames loadtest`.
#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// The site: an http:// address (a server, or the proxy in front of several)
    #[arg(value_name = "URL", value_parser = http_address)]
    url: String,
    /// Virtual players, 1 to 10000, each with its own cookie and its own made-up client address
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = RangedU64ValueParser::<usize>::new().range(1..=10_000))]
    players: usize,
    /// How long they play, in seconds (at least 1)
    #[arg(long, value_name = "S", default_value_t = 30, value_parser = value_parser!(u64).range(1..))]
    seconds: u64,
    /// A player's think time before each move, in milliseconds
    #[arg(long = "think-ms", value_name = "T", default_value_t = 500)]
    think_ms: u64,
    /// The computer's level in the players' games: debutant, intermediaire, fort, or a step of the electronic board's
    /// ladder, 1 to 8
    #[arg(long, value_name = "LEVEL", default_value = "intermediaire")]
    level: Level,
    /// A server process whose CPU time per move is reported (Linux); once for each server
    #[arg(long = "server-pid", value_name = "PID")]
    server_pid: Vec<u32>,
}

/// The site's address, without a final `/`.
fn http_address(text: &str) -> Result<String, String> {
    let url = text.trim_end_matches('/').to_string();
    if url.starts_with("http://") {
        Ok(url)
    } else {
        Err(format!("{url:?}: an http:// address"))
    }
}

impl LoadtestArgs {
    /// 0, or 1 when the site answered with server errors or not at all.
    pub fn run(self) -> Result<i32, UsageError> {
        let plan = Plan {
            url: self.url,
            players: self.players,
            seconds: self.seconds,
            think_ms: self.think_ms,
            level: self.level,
            server_pids: self.server_pid,
        };
        on_runtime(crate::ops::loadtest::command(plan))
    }
}
