//! An engine in another process, spoken to through one of the two Hub
//! protocols (Scan 2.0's first one, or the second one that `dames hub`
//! speaks): started, told each position and its budget, and restarted when
//! it crashes or hangs. What it writes is outside input: a line that makes
//! no sense is skipped, a move that is no legal move is the engine's to
//! answer for.

use super::{Answer, Player, Reply};
use crate::engine::hub::{board_text, hub1_board_text, hub_move, parse_args, parse_hub_move};
use crate::engine::Game;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Which Hub protocol an engine speaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Protocol {
    /// The first one, Scan 2.0's: `hub` → `name …` … `wait`, `init` →
    /// `ready`, `set NAME VALUE`, `pos <51 characters>` (side to move in
    /// lower case), `time MS` or `depth N`, `go` → `move 32-28 [ponder]`.
    Hub1,
    /// The second one, `dames hub`'s and later Scan's: `hub` → `id …`
    /// `param …` `wait`, `init` → `ready`, `set-param name=N value=V`,
    /// `new-game`, `pos pos=<51 characters> moves="…"`, `level
    /// move-time=S`, `level nodes=N` or `level depth=N`, `go think` →
    /// `done move=32-28 [ponder=…]`.
    Hub2,
}

impl FromStr for Protocol {
    type Err = String;
    fn from_str(text: &str) -> Result<Protocol, String> {
        match text {
            "hub1" => Ok(Protocol::Hub1),
            "hub2" => Ok(Protocol::Hub2),
            _ => Err("takes hub1 (Scan 2.0's) or hub2 (dames hub's)".into()),
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Hub1 => "hub1",
            Protocol::Hub2 => "hub2",
        })
    }
}

/// What an engine may spend on a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Budget {
    /// Milliseconds of its own clock.
    Time(u64),
    /// Plies of its search.
    Depth(u32),
    /// Nodes of its search (the second protocol only).
    Nodes(u64),
}

impl Budget {
    /// How long a move may take before the engine counts as hung: ten
    /// times its time and two seconds more, so that a slow move on a busy
    /// machine is not taken for a hang; a minute for a budget of depth or
    /// nodes, whose time nobody knows.
    pub fn hang_after(self) -> Duration {
        match self {
            Budget::Time(ms) => Duration::from_millis(ms.saturating_mul(10).saturating_add(2_000)),
            Budget::Depth(_) | Budget::Nodes(_) => Duration::from_secs(60),
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Time(ms) => write!(f, "{ms} ms a move"),
            Budget::Depth(depth) => write!(f, "depth {depth}"),
            Budget::Nodes(nodes) => write!(f, "{nodes} nodes a move"),
        }
    }
}

/// How to start an engine and what to ask of it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineSpec {
    /// The program and its arguments (`/opt/scan/scan`, `hub`).
    pub command: Vec<String>,
    /// The folder it runs in (Scan reads `scan.ini` and `data/` from
    /// there); its program's folder when not given.
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    pub budget: Budget,
    /// Settings sent before `init`, after the ones every match sends to a
    /// first-protocol engine (`book false`, `threads 1`), so that they may
    /// override them.
    pub settings: Vec<(String, String)>,
}

/// Settings a first-protocol engine gets before its own: no opening book
/// (the match gives the openings) and one thread (a match plays its games
/// side by side, one a core).
pub const HUB1_SETTINGS: [(&str, &str); 2] = [("book", "false"), ("threads", "1")];

/// How long an engine may take to introduce itself and load its data
/// (Scan loads its bitbases at `init`).
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// Restarts tried for one move before the engine forfeits the game.
pub const RESTARTS_PER_MOVE: u32 = 2;

impl EngineSpec {
    /// The folder the engine runs in: the one given, or its program's
    /// folder when the program is named with a path.
    fn working_dir(&self) -> Option<PathBuf> {
        if let Some(dir) = &self.dir {
            return Some(dir.clone());
        }
        let program = Path::new(self.command.first()?);
        program.parent().filter(|p| !p.as_os_str().is_empty()).map(Path::to_path_buf)
    }

    /// The program to run: a path with a folder in it is made absolute
    /// from the current folder, since the engine runs in another one; a
    /// bare name is looked up in `PATH`.
    fn program(&self) -> Result<PathBuf, String> {
        let program = Path::new(self.command.first().ok_or("no engine command")?);
        if program.components().count() > 1 && program.is_relative() {
            let here = std::env::current_dir().map_err(|e| format!("no current folder: {e}"))?;
            return Ok(here.join(program));
        }
        Ok(program.to_path_buf())
    }

    /// The engine's own name when it gives none: its program's file name.
    fn fallback_name(&self) -> String {
        let program = self.command.first().map(String::as_str).unwrap_or("engine");
        Path::new(program).file_name().and_then(|n| n.to_str()).unwrap_or(program).to_string()
    }
}

/// An engine process: its input, and the lines of its output as a reader
/// thread hands them on (so that a wait for them can time out).
struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

/// Why an exchange with the engine stopped short.
#[derive(Debug)]
enum Fault {
    /// It closed its output or its input: it has exited.
    Exited,
    /// No awaited answer within the time.
    Hung(Duration),
    /// It refused to start.
    Start(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Exited => f.write_str("it exited"),
            Fault::Hung(after) => write!(f, "no answer within {} ms", after.as_millis()),
            Fault::Start(why) => write!(f, "it did not start: {why}"),
        }
    }
}

impl Process {
    fn start(spec: &EngineSpec) -> Result<Process, Fault> {
        let program = spec.program().map_err(Fault::Start)?;
        let mut command = Command::new(&program);
        command.args(spec.command.iter().skip(1)).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = spec.working_dir() {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(|e| Fault::Start(format!("{}: {e}", program.display())))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Fault::Start("no pipes to the engine".into()));
        };
        let (send, lines) = std::sync::mpsc::channel();
        // The reader ends at the engine's end of output (or when nobody
        // listens any more); the lines of an engine that is not text are
        // read as best they can be.
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            let mut line = Vec::new();
            loop {
                line.clear();
                match output.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim_end().to_string();
                        if send.send(text).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Process { child, input, lines })
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.input, "{line}").and_then(|()| self.input.flush()).map_err(|_| Fault::Exited)
    }

    /// The first line for which `wanted` gives something, the lines
    /// before it handed to `aside` (an engine's chatter, its name…).
    fn wait_for<T>(
        &mut self,
        within: Duration,
        mut wanted: impl FnMut(&str) -> Option<T>,
        mut aside: impl FnMut(&str),
    ) -> Result<T, Fault> {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => match wanted(&line) {
                    Some(found) => return Ok(found),
                    None => aside(&line),
                },
                Err(RecvTimeoutError::Timeout) => return Err(Fault::Hung(within)),
                Err(RecvTimeoutError::Disconnected) => return Err(Fault::Exited),
            }
        }
    }

    /// Ends the process: `quit` and a moment to go, then killed.
    fn stop(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A player that is an engine in another process, started when first
/// needed and again after it crashed or hung.
pub struct Engine {
    spec: EngineSpec,
    process: Option<Process>,
    /// Its name as it gave it (`Scan 2.0`), once started.
    name: Option<String>,
    /// Processes started after the first.
    restarts: u32,
    /// Processes started in all.
    starts: u32,
}

impl Engine {
    /// An engine to be started when first asked for a move.
    pub fn new(spec: EngineSpec) -> Engine {
        Engine { spec, process: None, name: None, restarts: 0, starts: 0 }
    }

    /// Starts the engine now (to check its command and learn its name
    /// before a match begins).
    pub fn start(&mut self) -> Result<(), String> {
        if self.process.is_none() {
            let process = self.launch().map_err(|fault| fault.to_string())?;
            self.process = Some(process);
        }
        Ok(())
    }

    /// Its name as it gave it, or its program's.
    pub fn engine_name(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.spec.fallback_name())
    }

    /// A new process, introduced, set up and initialised.
    fn launch(&mut self) -> Result<Process, Fault> {
        if self.starts > 0 {
            self.restarts += 1;
        }
        self.starts += 1;
        let mut process = Process::start(&self.spec)?;
        match self.introduce(&mut process) {
            Ok(()) => Ok(process),
            Err(fault) => {
                process.kill();
                Err(fault)
            }
        }
    }

    fn introduce(&mut self, process: &mut Process) -> Result<(), Fault> {
        let mut name = None;
        process.send("hub")?;
        process.wait_for(
            START_TIMEOUT,
            |line| (line.trim() == "wait").then_some(()),
            |line| name = name.take().or_else(|| self.spec.protocol.name_in(line)),
        )?;
        if let Some(name) = name {
            self.name = Some(name);
        }
        let defaults = match self.spec.protocol {
            Protocol::Hub1 => &HUB1_SETTINGS[..],
            Protocol::Hub2 => &[],
        };
        let own = self.spec.settings.iter().map(|(n, v)| (n.as_str(), v.as_str()));
        for (setting, value) in defaults.iter().copied().chain(own) {
            process.send(&match self.spec.protocol {
                Protocol::Hub1 => format!("set {setting} {value}"),
                Protocol::Hub2 => format!("set-param name={setting} value={}", quoted(value)),
            })?;
        }
        process.send("init")?;
        process.wait_for(START_TIMEOUT, |line| (line.trim() == "ready").then_some(()), |_| {})
    }

    /// One move asked of the running process: the move's text as the
    /// engine wrote it.
    fn exchange(&mut self, game: &Game) -> Result<(String, f64), Fault> {
        let (protocol, budget) = (self.spec.protocol, self.spec.budget);
        let process = self.process.as_mut().ok_or(Fault::Exited)?;
        let budget_line = protocol.budget_line(budget).map_err(Fault::Start)?;
        match protocol {
            Protocol::Hub1 => process.send(&format!("pos {}", hub1_board_text(game.position())))?,
            Protocol::Hub2 => {
                // The moves since the last man's move or capture go with
                // the position, so that the engine sees the repetitions
                // to come.
                let reversible = game.since_progress().len() - 1;
                let moves = &game.moves()[game.moves().len() - reversible..];
                let from = game.since_progress()[0];
                let texts: Vec<String> = moves.iter().map(hub_move).collect();
                process.send(&format!("pos pos={} moves=\"{}\"", board_text(&from), texts.join(" ")))?;
            }
        }
        // After the position: the first protocol's `pos` resets the limits.
        process.send(&budget_line)?;
        let asked = Instant::now();
        process.send(match protocol {
            Protocol::Hub1 => "go",
            Protocol::Hub2 => "go think",
        })?;
        let text = process.wait_for(budget.hang_after(), |line| protocol.move_in(line), |_| {})?;
        Ok((text, asked.elapsed().as_secs_f64() * 1000.0))
    }

    /// Ends the running process, if any.
    fn drop_process(&mut self, kill: bool) {
        if let Some(process) = self.process.take() {
            if kill {
                process.kill();
            } else {
                process.stop();
            }
        }
    }
}

impl Protocol {
    /// The line that gives an engine its budget for the next move; the
    /// first protocol has no node budget.
    pub fn budget_line(self, budget: Budget) -> Result<String, String> {
        Ok(match (self, budget) {
            (Protocol::Hub1, Budget::Time(ms)) => format!("time {ms}"),
            (Protocol::Hub1, Budget::Depth(depth)) => format!("depth {depth}"),
            (Protocol::Hub1, Budget::Nodes(_)) => {
                return Err("the first Hub protocol has no node budget: give the engine time or depth".into())
            }
            (Protocol::Hub2, Budget::Time(ms)) => format!("level move-time={}", ms as f64 / 1000.0),
            (Protocol::Hub2, Budget::Depth(depth)) => format!("level depth={depth}"),
            (Protocol::Hub2, Budget::Nodes(nodes)) => format!("level nodes={nodes}"),
        })
    }

    /// The engine's name in a line of its introduction, if there.
    fn name_in(self, line: &str) -> Option<String> {
        match self {
            Protocol::Hub1 => line.strip_prefix("name ").map(|n| n.trim().to_string()).filter(|n| !n.is_empty()),
            Protocol::Hub2 => {
                let args = parse_args(line.strip_prefix("id ")?);
                let value = |key: &str| args.iter().find(|(n, _)| n == key).map(|(_, v)| v.as_str());
                let name = value("name").filter(|n| !n.is_empty())?;
                Some(match value("version") {
                    Some(version) if !version.is_empty() => format!("{name} {version}"),
                    _ => name.to_string(),
                })
            }
        }
    }

    /// The move's text in the line answering `go`, if it is that line
    /// (`move` with nothing after it counts, as an empty move).
    fn move_in(self, line: &str) -> Option<String> {
        let mut words = line.split_whitespace();
        match (self, words.next()?) {
            (Protocol::Hub1, "move") => Some(words.next().unwrap_or_default().to_string()),
            (Protocol::Hub2, "done") => {
                let args = parse_args(line.trim_start().strip_prefix("done").unwrap_or_default());
                Some(args.into_iter().find(|(n, _)| n == "move").map(|(_, v)| v).unwrap_or_default())
            }
            _ => None,
        }
    }
}

/// A value for `set-param`, quoted when it has a space.
fn quoted(value: &str) -> String {
    if value.contains(' ') {
        format!("\"{value}\"")
    } else {
        value.to_string()
    }
}

impl Player for Engine {
    fn name(&self) -> String {
        self.engine_name()
    }

    fn describe(&self) -> String {
        format!("{} ({})", self.engine_name(), self.spec.budget)
    }

    fn new_game(&mut self) {
        let line = match self.spec.protocol {
            Protocol::Hub1 => "new",
            Protocol::Hub2 => "new-game",
        };
        // A process that has died is found out, and replaced, at the
        // first move asked of it.
        if let Some(process) = self.process.as_mut() {
            if process.send(line).is_err() {
                self.drop_process(true);
            }
        }
    }

    fn reply(&mut self, game: &Game, _seed: u64) -> Answer {
        let mut faults = Vec::new();
        for _ in 0..=RESTARTS_PER_MOVE {
            if self.process.is_none() {
                match self.launch() {
                    Ok(process) => self.process = Some(process),
                    Err(fault) => {
                        faults.push(fault.to_string());
                        continue;
                    }
                }
            }
            match self.exchange(game) {
                Ok((text, ms)) => {
                    let reply = match parse_hub_move(game.position(), &text) {
                        Ok(mv) => Reply::Move(mv),
                        Err(_) => Reply::Illegal(text),
                    };
                    return Answer { reply, ms };
                }
                Err(fault) => {
                    faults.push(fault.to_string());
                    self.drop_process(true);
                }
            }
        }
        Answer { reply: Reply::Failed(faults.join("; ")), ms: 0.0 }
    }

    fn restarts(&self) -> u32 {
        self.restarts
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.drop_process(false);
    }
}
