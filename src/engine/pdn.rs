//! Whole games in PDN (Portable Draughts Notation): reading real files,
//! replaying them through the rules, and writing games back.

use super::notation::{move_to_text, MoveText};
use super::{FenError, Game, GameError, Move, Position};
use std::fmt;

/// One game as written: its tags, its main line of moves (variations,
/// comments and annotations dropped) and the result token if any.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PdnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: Option<String>,
}

impl PdnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The start position: the `FEN` tag, or the usual start.
    pub fn start_position(&self) -> Result<Position, FenError> {
        match self.tag("FEN") {
            Some(fen) => Position::from_fen(fen),
            None => Ok(Position::start()),
        }
    }
}

/// Why a game did not replay.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayError {
    /// The `FEN` tag is not a position.
    BadStart(FenError),
    /// The move at this ply (0-based) is not legal or not readable.
    Move { ply: usize, text: String, error: GameError },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::BadStart(e) => write!(f, "bad FEN tag: {e}"),
            ReplayError::Move { ply, text, error } => write!(f, "ply {}: {text}: {error}", ply + 1),
        }
    }
}

impl std::error::Error for ReplayError {}

impl ReplayError {
    /// The 1-based ply where the replay stopped, if a move was at fault.
    pub fn ply(&self) -> Option<usize> {
        match self {
            ReplayError::BadStart(_) => None,
            ReplayError::Move { ply, .. } => Some(ply + 1),
        }
    }
}

/// Result tokens written in the wild besides the standard `2-0 1-1 0-2 *`.
const RESULT_TOKENS: &[&str] = &["2-0", "1-1", "0-2", "0-0", "1-0", "0-1", "*", "1/2-1/2", "½-½"];

/// Splits a PDN text into games. Never fails: what cannot be understood as
/// a move is kept as a move text, for the replay to reject with its ply.
pub fn parse_pdn(text: &str) -> Vec<PdnGame> {
    let mut games = Vec::new();
    let mut game = PdnGame::default();
    let mut chars = text.chars().peekable();
    // Move text waiting for its second half when written `1- 7` or `13x 2`.
    let mut pending = String::new();

    fn finish(games: &mut Vec<PdnGame>, game: &mut PdnGame, pending: &mut String) {
        if !pending.is_empty() {
            game.moves.push(std::mem::take(pending));
        }
        let done = std::mem::take(game);
        if !done.tags.is_empty() || !done.moves.is_empty() || done.result.is_some() {
            games.push(done);
        }
    }

    while let Some(c) = chars.next() {
        match c {
            '[' => {
                let mut inner = String::new();
                let mut quoted = false;
                for c in chars.by_ref() {
                    match c {
                        '"' => {
                            quoted = !quoted;
                            inner.push(c);
                        }
                        ']' if !quoted => break,
                        _ => inner.push(c),
                    }
                }
                let inner = inner.trim();
                let (name, value) = match inner.split_once(char::is_whitespace) {
                    Some((n, v)) => (n.to_string(), v.trim().trim_matches('"').to_string()),
                    None => (inner.to_string(), String::new()),
                };
                let repeated = game.tags.iter().any(|(n, _)| *n == name);
                if !game.moves.is_empty() || !pending.is_empty() || game.result.is_some() || repeated {
                    finish(&mut games, &mut game, &mut pending);
                }
                game.tags.push((name, value));
            }
            '{' => {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
            }
            '(' => {
                let mut depth = 1;
                while depth > 0 {
                    match chars.next() {
                        Some('(') => depth += 1,
                        Some(')') => depth -= 1,
                        Some('{') => {
                            for c in chars.by_ref() {
                                if c == '}' {
                                    break;
                                }
                            }
                        }
                        Some(_) => {}
                        None => break,
                    }
                }
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {}
            _ => {
                let mut word = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || matches!(n, '{' | '(' | '[' | ';') {
                        break;
                    }
                    word.push(n);
                    chars.next();
                }
                if word.starts_with('$') {
                    continue;
                }
                let is_result = RESULT_TOKENS.contains(&word.as_str()) || game.tag("Result") == Some(word.as_str());
                if is_result && pending.is_empty() {
                    game.result = Some(word);
                    finish(&mut games, &mut game, &mut pending);
                    continue;
                }
                // Drop a move number (`12.`, `12...`, `01.`) in front of the move.
                let body = word.trim_start_matches(|c: char| c.is_ascii_digit());
                let word = if body.starts_with('.') && word.as_bytes()[0].is_ascii_digit() {
                    body.trim_start_matches('.').to_string()
                } else {
                    word
                };
                let word = word.trim_end_matches(['!', '?', '+', '#']).to_string();
                // `77. ...` stands for a move not written.
                if word.chars().all(|c| c == '.') {
                    continue;
                }
                pending.push_str(&word);
                if !(pending.ends_with(['-', 'x', 'X', ':'])) {
                    game.moves.push(std::mem::take(&mut pending));
                }
            }
        }
    }
    finish(&mut games, &mut game, &mut pending);
    games
}

/// Replays a game through the rules. A capture written bare (`19x30`) that
/// matches two legal captures is settled by the moves that follow, as a
/// reader of the game would.
pub fn replay(pdn: &PdnGame) -> Result<Game, ReplayError> {
    let start = pdn.start_position().map_err(ReplayError::BadStart)?;
    let mut game = Game::new(start);
    replay_from(&mut game, &pdn.moves)?;
    Ok(game)
}

fn replay_from(game: &mut Game, texts: &[String]) -> Result<(), ReplayError> {
    let Some((text, rest)) = texts.split_first() else {
        return Ok(());
    };
    let ply = game.moves().len();
    let fail = |error: GameError| ReplayError::Move { ply, text: text.clone(), error };
    if let Some(outcome) = game.outcome() {
        return Err(fail(GameError::Finished(outcome)));
    }
    let parsed = MoveText::parse(text).map_err(|e| fail(GameError::Text(e)))?;
    let mut candidates = parsed.candidates(game.position(), true);
    if candidates.is_empty() {
        candidates = parsed.candidates(game.position(), false);
    }
    if candidates.is_empty() {
        let e = parsed.resolve(game.position()).expect_err("no candidate means no move");
        return Err(fail(GameError::Text(e)));
    }
    let mut first_error = None;
    for mv in &candidates {
        let mut attempt = game.clone();
        attempt.play(mv).map_err(fail)?;
        match replay_from(&mut attempt, rest) {
            Ok(()) => {
                *game = attempt;
                return Ok(());
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.expect("at least one candidate was tried"))
}

/// Writes a game as PDN: the given tags (a `FEN` tag is added when the game
/// does not start from the usual position), numbered moves, the result.
pub fn write_pdn(game: &Game, tags: &[(&str, &str)], result: &str) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        let value = value.replace(['"', '\\'], "'");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    if *game.start() != Position::start() {
        out.push_str(&format!("[FEN \"{}\"]\n", game.start().to_fen()));
    }
    out.push('\n');
    let mut pos = *game.start();
    let mut line = String::new();
    let black_first = pos.turn() == super::Color::Black;
    for (i, mv) in game.moves().iter().enumerate() {
        let ply = i + usize::from(black_first);
        if ply % 2 == 0 {
            line.push_str(&format!("{}. ", ply / 2 + 1));
        } else if i == 0 {
            line.push_str(&format!("{}... ", ply / 2 + 1));
        }
        line.push_str(&move_to_text(&pos, mv));
        line.push(' ');
        pos = pos.play_unchecked(mv);
        if line.len() > 70 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
    }
    line.push_str(result);
    out.push_str(&line);
    out.push('\n');
    out
}

/// The moves of a game as PDN move texts, one per ply.
pub fn move_texts(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = *start;
    moves
        .iter()
        .map(|m| {
            let t = move_to_text(&pos, m);
            pos = pos.play_unchecked(m);
            t
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_comments_variations_and_split_moves() {
        let text = r#"[White "A"]
[Black "B"]
[Result "2-0"]
{ opening } 1. 32-28 $1 18-23 ( 1... 19-23 2. 28x19 ) 2. 38-32 12- 18 ; note
3.31-27 2-0
[White "C"]
[Result "4-6"]
1. 32-28 4-6
"#;
        let games = parse_pdn(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, vec!["32-28", "18-23", "38-32", "12-18", "31-27"]);
        assert_eq!(games[0].result.as_deref(), Some("2-0"));
        assert_eq!(games[0].tag("white"), Some("A"));
        assert_eq!(games[1].moves, vec!["32-28"]);
        assert_eq!(games[1].result.as_deref(), Some("4-6"));
        let game = replay(&games[0]).unwrap();
        assert_eq!(game.moves().len(), 5);
    }

    #[test]
    fn header_only_games_are_games() {
        let games = parse_pdn("[White \"A\"]\n[Result \"*\"]\n *\n\n[White \"B\"]\n[White \"C\"]\n");
        assert_eq!(games.len(), 3);
        assert!(games.iter().all(|g| g.moves.is_empty()));
    }

    #[test]
    fn an_illegal_move_is_reported_with_its_ply() {
        let games = parse_pdn("1. 32-28 18-23 2. 28-33 *");
        let err = replay(&games[0]).unwrap_err();
        assert_eq!(err.ply(), Some(3));
    }

    #[test]
    fn written_games_read_back() {
        let mut game = Game::new(Position::from_fen("B:W28,33:B19,23").unwrap());
        game.play_text("23x32").unwrap();
        game.play_text("33-28").unwrap();
        let text = write_pdn(&game, &[("White", "Joueur \"x\""), ("Black", "Ordinateur")], "*");
        let games = parse_pdn(&text);
        assert_eq!(games.len(), 1);
        let again = replay(&games[0]).unwrap();
        assert_eq!(again.moves(), game.moves());
        assert_eq!(again.start(), game.start());
    }
}
