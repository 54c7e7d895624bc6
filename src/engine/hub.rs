//! The Hub protocol (the text protocol of the Scan engine and of
//! Hub-compatible interfaces), as a state machine: a line in, lines out. The
//! command line wires it to standard input and output. Also the texts both
//! Hub protocols share with an engine in another process (boards, moves,
//! `name=value` arguments), which `dames match` writes and reads.

use super::bot::{self, Level};
use super::search::{DrawCounters, Limits};
use super::{Color, Move, Position, Setup, Square};

/// What the engine answers to one line.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Answer {
    pub lines: Vec<String>,
    /// The interface said `quit`.
    pub quit: bool,
}

pub struct Hub {
    position: Position,
    limits: Limits,
    seed: u64,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub { position: Position::start(), limits: Level::Fort.limits(), seed: 0 }
    }
}

impl Hub {
    pub fn new() -> Hub {
        Hub::default()
    }

    pub fn handle(&mut self, line: &str) -> Answer {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Answer::default();
        };
        let args: Vec<(String, String)> = parse_args(line[line.find(command).unwrap_or(0) + command.len()..].trim());
        let arg = |name: &str| args.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        let lines = match command {
            "hub" => vec![
                format!("id name=Dames version={}", env!("CARGO_PKG_VERSION")),
                "param name=level value=fort type=enum values=\"debutant intermediaire fort\"".to_string(),
                "param name=seed value=0 type=int min=0 max=4294967295".to_string(),
                "wait".to_string(),
            ],
            "init" => vec!["ready".to_string()],
            "new-game" | "ping" | "stop" | "ponder-hit" => {
                if command == "ping" {
                    vec!["pong".to_string()]
                } else {
                    Vec::new()
                }
            }
            "quit" => return Answer { lines: Vec::new(), quit: true },
            "set-param" => match (arg("name"), arg("value")) {
                (Some("level"), Some(v)) => match v.parse::<Level>() {
                    Ok(level) => {
                        self.limits = level.limits();
                        Vec::new()
                    }
                    Err(e) => vec![format!("error {e}")],
                },
                (Some("seed"), Some(v)) => match v.parse() {
                    Ok(seed) => {
                        self.seed = seed;
                        Vec::new()
                    }
                    Err(_) => vec![format!("error bad seed {v:?}")],
                },
                _ => vec![format!("error unknown parameter in {line:?}")],
            },
            "level" => {
                let mut errors = Vec::new();
                for (name, value) in &args {
                    match (name.as_str(), value.parse::<u64>()) {
                        ("depth", Ok(d)) if (1..=64).contains(&d) => {
                            self.limits.depth = d as u32;
                            self.limits.nodes = u64::MAX;
                        }
                        ("nodes", Ok(n)) if n >= 1 => {
                            self.limits.nodes = n;
                            self.limits.depth = 64;
                        }
                        // Time controls are accepted and ignored: this
                        // engine is bounded by depth and nodes only.
                        ("move-time" | "time" | "inc" | "moves", _) | ("infinite", _) => {}
                        _ => errors.push(format!("error bad level {name}={value}")),
                    }
                }
                errors
            }
            "pos" => match self.set_position(arg("pos"), arg("moves")) {
                Ok(()) => Vec::new(),
                Err(e) => vec![format!("error {e}")],
            },
            "go" => self.go(),
            other => vec![format!("error unknown command {other:?}")],
        };
        Answer { lines, quit: false }
    }

    fn set_position(&mut self, board: Option<&str>, moves: Option<&str>) -> Result<(), String> {
        let mut pos = match board {
            Some(text) => parse_board(text)?,
            None => Position::start(),
        };
        for text in moves.unwrap_or("").split_whitespace() {
            let mv = parse_hub_move(&pos, text)?;
            pos = pos.play_unchecked(&mv);
        }
        self.position = pos;
        Ok(())
    }

    fn go(&mut self) -> Vec<String> {
        let counters = DrawCounters::default();
        let Some(result) = bot::search(&self.position, counters, &self.limits) else {
            return vec!["error no legal move".to_string()];
        };
        let mv = bot::choose(&result, self.seed, 0);
        let mut line = format!("done move={}", hub_move(&mv));
        if mv == result.pv[0] {
            if let Some(ponder) = result.pv.get(1) {
                line.push_str(&format!(" ponder={}", hub_move(ponder)));
            }
        }
        vec![format!("info depth={} score={} nodes={}", result.depth, result.score, result.nodes), line]
    }
}

/// `name=value` pairs; values may be quoted (a word alone is a name with
/// an empty value).
pub fn parse_args(text: &str) -> Vec<(String, String)> {
    let mut args = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let (name, after) = match rest.find(['=', ' ']) {
            Some(i) if rest.as_bytes()[i] == b'=' => (&rest[..i], &rest[i + 1..]),
            Some(i) => {
                args.push((rest[..i].to_string(), String::new()));
                rest = rest[i..].trim_start();
                continue;
            }
            None => {
                args.push((rest.to_string(), String::new()));
                break;
            }
        };
        let (value, after) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(' ') {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        args.push((name.to_string(), value.to_string()));
        rest = after.trim_start();
    }
    args
}

/// The Hub board: the side to move (`W`/`B`) and 50 squares of `w b W B e`.
pub fn parse_board(text: &str) -> Result<Position, String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 51 {
        return Err(format!("position must be 51 characters, not {}", chars.len()));
    }
    let turn = match chars[0] {
        'W' | 'w' => Color::White,
        'B' | 'b' => Color::Black,
        c => return Err(format!("bad side to move {c:?}")),
    };
    let mut setup = Setup { turn: Some(turn), ..Setup::default() };
    for (square, c) in Square::all().zip(&chars[1..]) {
        match c {
            'w' => setup.white = setup.white.with(square),
            'b' => setup.black = setup.black.with(square),
            'W' => {
                setup.white = setup.white.with(square);
                setup.kings = setup.kings.with(square);
            }
            'B' => {
                setup.black = setup.black.with(square);
                setup.kings = setup.kings.with(square);
            }
            'e' | '.' => {}
            c => return Err(format!("bad square {c:?} on {square}")),
        }
    }
    Position::from_setup(setup).map_err(|e| e.to_string())
}

/// The Hub board of a position.
pub fn board_text(pos: &Position) -> String {
    let mut text = String::with_capacity(51);
    text.push(pos.turn().letter());
    for square in Square::all() {
        text.push(match pos.piece_at(square).map(|p| p.code()) {
            Some("wm") => 'w',
            Some("wk") => 'W',
            Some("bm") => 'b',
            Some("bk") => 'B',
            _ => 'e',
        });
    }
    text
}

/// The board as the first Hub protocol (Scan 2.0's) writes it: the side to
/// move in lower case (`w`, `b`), then the 50 squares as [`board_text`]
/// writes them.
pub fn hub1_board_text(pos: &Position) -> String {
    let squares = board_text(pos);
    let mut text = String::with_capacity(squares.len());
    text.push(pos.turn().letter().to_ascii_lowercase());
    text.push_str(squares.get(1..).unwrap_or_default());
    text
}

/// A move as the Hub protocol writes it: `32-28`, or for a capture the
/// start, the end and the captured squares joined by `x`.
pub fn hub_move(mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from, mv.to);
    }
    let mut text = format!("{}x{}", mv.from, mv.to);
    for s in mv.captured.squares() {
        text.push_str(&format!("x{s}"));
    }
    text
}

/// Reads a Hub move against the legal moves of `pos`.
pub fn parse_hub_move(pos: &Position, text: &str) -> Result<Move, String> {
    let numbers: Result<Vec<Square>, _> =
        text.split(['-', 'x']).map(|n| n.parse::<u8>().ok().and_then(Square::new).ok_or(())).collect();
    let numbers = numbers.map_err(|_| format!("bad move {text:?}"))?;
    if numbers.len() < 2 {
        return Err(format!("bad move {text:?}"));
    }
    let captured = &numbers[2..];
    pos.legal_moves()
        .into_iter()
        .find(|m| {
            m.from == numbers[0]
                && m.to == numbers[1]
                && (captured.is_empty() && m.capture_count() <= 1 || m.captured.count() as usize == captured.len())
                && captured.iter().all(|s| m.captured.contains(*s))
        })
        .ok_or_else(|| format!("illegal move {text:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_conversation() {
        let mut hub = Hub::new();
        let hello = hub.handle("hub");
        assert!(hello.lines[0].starts_with("id name=Dames"));
        assert_eq!(hello.lines.last().map(String::as_str), Some("wait"));
        assert_eq!(hub.handle("init").lines, vec!["ready"]);
        assert!(hub.handle("new-game").lines.is_empty());
        let start = board_text(&Position::start());
        assert!(hub.handle(&format!("pos pos={start} moves=\"32-28 19-23\"")).lines.is_empty());
        assert!(hub.handle("level depth=3").lines.is_empty());
        let answer = hub.handle("go think");
        let done = answer.lines.last().unwrap();
        assert!(done.starts_with("done move="), "{done}");
        // 28x19 is forced.
        assert!(done.starts_with("done move=28x19x23"), "{done}");
        assert!(hub.handle("frobnicate").lines[0].starts_with("error"));
        assert!(hub.handle("pos pos=Wxyz").lines[0].starts_with("error"));
        assert!(hub.handle("pos moves=\"32-29\"").lines[0].starts_with("error"));
        assert!(hub.handle("quit").quit);
    }

    #[test]
    fn board_text_round_trips() {
        let pos = Position::from_fen("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33").unwrap();
        assert_eq!(parse_board(&board_text(&pos)), Ok(pos));
        assert_eq!(parse_board(&hub1_board_text(&pos)), Ok(pos));
    }

    #[test]
    fn the_first_protocol_writes_the_side_to_move_in_lower_case() {
        let start = hub1_board_text(&Position::start());
        assert_eq!(start, format!("w{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20)));
        let black = Position::from_fen("B:WK46:B5").unwrap();
        assert_eq!(hub1_board_text(&black), format!("b{}b{}W{}", "e".repeat(4), "e".repeat(40), "e".repeat(4)));
    }

    #[test]
    fn arguments_may_be_quoted() {
        let args = parse_args("name=Scan version=3.1 author=\"Fabien Letouzey\" infinite");
        let pairs: Vec<(&str, &str)> = args.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(pairs, [("name", "Scan"), ("version", "3.1"), ("author", "Fabien Letouzey"), ("infinite", "")]);
    }
}
