//! Whole games in PDN (Portable Draughts Notation): reading real files,
//! replaying them through the rules, and writing games back.

use super::geometry::{Geometry, Ten};
use super::notation::{move_to_text, MoveText};
use super::{FenError, Game, GameError, Move, Position, Preset, Rules};
use std::fmt;
use std::iter::Peekable;
use std::str::Chars;

/// One game as written: its tags, its main line of moves (variations,
/// comments and annotations dropped) and the result token if any.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PdnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// Where each move of `moves` starts in the text: a refused move is
    /// named with its line and column.
    pub spots: Vec<Spot>,
    pub result: Option<String>,
}

/// A place in a text: line and column, both from 1 (a column counts
/// characters, not bytes).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Spot {
    pub line: u32,
    pub column: u32,
}

impl PdnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The start position under `rules`: the `FEN` tag, or the rules' start.
    pub fn start_position_with<G: Geometry>(&self, rules: Rules) -> Result<Position<G>, FenError> {
        match self.tag("FEN") {
            Some(fen) => Position::from_fen_with(fen, rules),
            None => Position::initial(rules).map_err(FenError::Position),
        }
    }

    /// The rules the game was played under: our `Rules` tag (a custom rule
    /// set in its text form) if present, else the standard `GameType` tag
    /// (20 international, 21 English, 25 Russian, 26 Brazilian, then
    /// optional fields), else `default`.
    pub fn rules(&self, default: Rules) -> Result<Rules, String> {
        if let Some(spec) = self.tag("Rules") {
            return Rules::parse(spec).map_err(|e| format!("Rules tag: {e}"));
        }
        let Some(game_type) = self.tag("GameType") else {
            return Ok(default);
        };
        let number = game_type.split(',').next().unwrap_or_default().trim();
        Preset::ALL
            .into_iter()
            .find(|p| p.pdn_game_type().to_string() == number)
            .map(Preset::rules)
            .ok_or_else(|| format!("GameType {game_type:?} is not a variant this program plays"))
    }
}

/// The tags that say which rules a game follows: `GameType` (the closest
/// variant's number), and `Rules` with the text form when the rules are no
/// preset (the daily challenge's count as international).
pub fn rules_tags(rules: &Rules) -> Vec<(&'static str, String)> {
    let mut tags = vec![("GameType", rules.closest_preset().pdn_game_type().to_string())];
    if rules.preset().is_none() && *rules != Rules::DAILY {
        tags.push(("Rules", rules.to_string()));
    }
    tags
}

/// Why a game did not replay.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayError<G: Geometry = Ten> {
    /// The `GameType` or `Rules` tag names no rules this program plays, or
    /// rules of another board.
    BadRules(String),
    /// The `FEN` tag is not a position.
    BadStart(FenError),
    /// The move at this ply (0-based) is not legal or not readable.
    Move { ply: usize, text: String, error: GameError<G> },
}

impl<G: Geometry> fmt::Display for ReplayError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::BadRules(why) => f.write_str(why),
            ReplayError::BadStart(e) => write!(f, "bad FEN tag: {e}"),
            ReplayError::Move { ply, text, error } => write!(f, "ply {}: {text}: {error}", ply + 1),
        }
    }
}

impl<G: Geometry> std::error::Error for ReplayError<G> {}

impl<G: Geometry> ReplayError<G> {
    /// The 1-based ply where the replay stopped, if a move was at fault.
    pub fn ply(&self) -> Option<usize> {
        match self {
            ReplayError::BadRules(_) | ReplayError::BadStart(_) => None,
            ReplayError::Move { ply, .. } => Some(ply + 1),
        }
    }
}

/// Result tokens written in the wild besides the standard `2-0 1-1 0-2 *`.
const RESULT_TOKENS: &[&str] = &["2-0", "1-1", "0-2", "0-0", "1-0", "0-1", "*", "1/2-1/2", "½-½"];

/// Splits a PDN text into games. Never fails: what cannot be understood as
/// a move is kept as a move text, for the replay to reject with its ply.
pub fn parse_pdn(text: &str) -> Vec<PdnGame> {
    Reader {
        chars: SpottedChars { chars: text.chars().peekable(), at: Spot { line: 1, column: 1 } },
        games: Vec::new(),
        game: PdnGame::default(),
        pending: String::new(),
        pending_spot: Spot::default(),
    }
    .read()
}

/// A text's characters, counting lines and columns.
struct SpottedChars<'a> {
    chars: Peekable<Chars<'a>>,
    /// Where the next character is.
    at: Spot,
}

impl Iterator for SpottedChars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.at = Spot { line: self.at.line + 1, column: 1 };
        } else {
            self.at.column += 1;
        }
        Some(c)
    }
}

impl SpottedChars<'_> {
    fn peek(&mut self) -> Option<&char> {
        self.chars.peek()
    }
}

/// Reads PDN text one character at a time, gathering the games seen so far
/// and the one being read.
struct Reader<'a> {
    chars: SpottedChars<'a>,
    games: Vec<PdnGame>,
    game: PdnGame,
    /// Move text waiting for its second half when written `1- 7` or `13x 2`.
    pending: String,
    /// Where the pending move text starts.
    pending_spot: Spot,
}

impl Reader<'_> {
    fn read(mut self) -> Vec<PdnGame> {
        loop {
            let spot = self.chars.at;
            let Some(c) = self.chars.next() else { break };
            match c {
                '[' => self.tag(),
                '{' => self.skip_past('}'),
                '(' => self.skip_variation(),
                ';' => self.skip_past('\n'),
                c if c.is_whitespace() => {}
                _ => {
                    let word = self.word(c);
                    self.token(word, spot);
                }
            }
        }
        self.finish_game();
        self.games
    }

    /// A `[Name "value"]` tag, its `[` read. A tag after moves or a result,
    /// or one the game already has, starts the next game: files do not
    /// always leave a result between games.
    fn tag(&mut self) {
        let mut inner = String::new();
        let mut quoted = false;
        for c in self.chars.by_ref() {
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
        let game = &self.game;
        let repeated = game.tags.iter().any(|(n, _)| *n == name);
        if !game.moves.is_empty() || !self.pending.is_empty() || game.result.is_some() || repeated {
            self.finish_game();
        }
        self.game.tags.push((name, value));
    }

    /// Skips a comment (`{…}`) or a line comment (`;…`), its opening read.
    fn skip_past(&mut self, end: char) {
        for c in self.chars.by_ref() {
            if c == end {
                break;
            }
        }
    }

    /// Skips a variation, its `(` read: nested variations and comments (a
    /// comment may hold a parenthesis) to its closing `)`.
    fn skip_variation(&mut self) {
        let mut depth = 1;
        while depth > 0 {
            match self.chars.next() {
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => self.skip_past('}'),
                Some(_) => {}
                None => break,
            }
        }
    }

    /// The rest of a word starting with `first`, up to a space or the start
    /// of a tag, comment or variation.
    fn word(&mut self, first: char) -> String {
        let mut word = String::from(first);
        while let Some(&n) = self.chars.peek() {
            if n.is_whitespace() || matches!(n, '{' | '(' | '[' | ';') {
                break;
            }
            word.push(n);
            self.chars.next();
        }
        word
    }

    /// A word of move text: an annotation (`$1`), a result, which ends the
    /// game, or a move, maybe numbered, maybe half of one.
    fn token(&mut self, word: String, spot: Spot) {
        if word.starts_with('$') {
            return;
        }
        let is_result = RESULT_TOKENS.contains(&word.as_str()) || self.game.tag("Result") == Some(word.as_str());
        // A result token cannot be the second half of a split move.
        if is_result && self.pending.is_empty() {
            self.game.result = Some(word);
            self.finish_game();
            return;
        }
        let (word, number_chars) = without_move_number(word);
        let word = word.trim_end_matches(['!', '?', '+', '#']);
        // `77. ...` stands for a move not written.
        if word.chars().all(|c| c == '.') {
            return;
        }
        if self.pending.is_empty() {
            self.pending_spot = Spot { column: spot.column + number_chars, ..spot };
        }
        self.pending.push_str(word);
        if !(self.pending.ends_with(['-', 'x', 'X', ':'])) {
            self.push_move();
        }
    }

    fn push_move(&mut self) {
        self.game.moves.push(std::mem::take(&mut self.pending));
        self.game.spots.push(self.pending_spot);
    }

    /// Closes the game being read, keeping it if anything was in it.
    fn finish_game(&mut self) {
        if !self.pending.is_empty() {
            self.push_move();
        }
        let done = std::mem::take(&mut self.game);
        if !done.tags.is_empty() || !done.moves.is_empty() || done.result.is_some() {
            self.games.push(done);
        }
    }
}

/// `word` without a move number in front (`12.`, `12...`, `01.`), and how
/// many characters that number took.
fn without_move_number(word: String) -> (String, u32) {
    let body = word.trim_start_matches(|c: char| c.is_ascii_digit());
    if body.len() < word.len() && body.starts_with('.') {
        let rest = body.trim_start_matches('.');
        ((*rest).to_string(), (word.len() - rest.len()) as u32)
    } else {
        (word, 0)
    }
}

/// Replays a game through the rules. A capture written bare (`19x30`) that
/// matches two legal captures is settled by the moves that follow, as a
/// reader of the game would.
pub fn replay(pdn: &PdnGame) -> Result<Game, ReplayError> {
    let rules = pdn.rules(Rules::INTERNATIONAL).map_err(ReplayError::BadRules)?;
    replay_with(pdn, rules)
}

/// Replays `pdn` under the rules its tags name (`default` when none), on
/// their board: the game, or the ply where it failed (0 before the first
/// move) and why.
pub fn replay_any(pdn: &PdnGame, default: Rules) -> Result<super::any::AnyGame, (usize, String)> {
    use super::any::AnyGame;
    use super::geometry::Eight;
    #[cfg(feature = "twelve")]
    use super::geometry::Twelve;
    fn on<G: Geometry>(pdn: &PdnGame, rules: Rules) -> Result<Game<G>, (usize, String)> {
        replay_with::<G>(pdn, rules).map_err(|e| (e.ply().unwrap_or(0), e.to_string()))
    }
    let rules = pdn.rules(default).map_err(|e| (0, e))?;
    Ok(match rules.size {
        8 => AnyGame::Eight(on::<Eight>(pdn, rules)?),
        #[cfg(feature = "twelve")]
        12 => AnyGame::Twelve(on::<Twelve>(pdn, rules)?),
        #[cfg(not(feature = "twelve"))]
        12 => return Err((0, super::PositionError::BoardNotBuilt(12).to_string())),
        _ => AnyGame::Ten(on::<Ten>(pdn, rules)?),
    })
}

/// Replays `pdn` under `rules` on the board of geometry `G`.
pub fn replay_with<G: Geometry>(pdn: &PdnGame, rules: Rules) -> Result<Game<G>, ReplayError<G>> {
    if rules.size != G::SIZE {
        return Err(ReplayError::BadRules(format!("rules for {0}×{0}, not {1}×{1}", rules.size, G::SIZE)));
    }
    // A record is replayed as it was played: players do not always claim
    // the draw a third repetition gives them (two games of the shared
    // collection go on past one), and the record, not the rule, says how
    // the game ended.
    let start = pdn.start_position_with(Rules { repetition: false, ..rules }).map_err(ReplayError::BadStart)?;
    let mut game = Game::new(start);
    replay_from(&mut game, &pdn.moves)?;
    Ok(game)
}

fn replay_from<G: Geometry>(game: &mut Game<G>, texts: &[String]) -> Result<(), ReplayError<G>> {
    let Some((text, rest)) = texts.split_first() else {
        return Ok(());
    };
    let ply = game.moves().len();
    let fail = |error: GameError<G>| ReplayError::Move { ply, text: text.clone(), error };
    if let Some(outcome) = game.outcome() {
        return Err(fail(GameError::Finished(outcome)));
    }
    let parsed = MoveText::<G>::parse(text).map_err(|e| fail(GameError::Text(e)))?;
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
pub fn write_pdn<G: Geometry>(game: &Game<G>, tags: &[(&str, &str)], result: &str) -> String {
    let mut out = String::new();
    let rules = game.start().rules();
    let rule_tags = rules_tags(&rules);
    let rule_tags = rule_tags.iter().map(|(n, v)| (*n, v.as_str()));
    for (name, value) in tags.iter().copied().chain(rule_tags) {
        let value = value.replace(['"', '\\'], "'");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    if Position::<G>::initial(rules).ok() != Some(*game.start()) {
        out.push_str(&format!("[FEN \"{}\"]\n", game.start().to_fen()));
    }
    out.push('\n');
    let mut pos = *game.start();
    let mut line = String::new();
    // Move numbers count from the side the rules have start (Black in
    // English draughts): a game set up with the other side to move starts
    // with `1...`.
    let black_first = pos.turn() != pos.rules().first;
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
pub fn move_texts<G: Geometry>(start: &Position<G>, moves: &[Move<G>]) -> Vec<String> {
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
        // Where each move starts: after its number, a split move at its
        // first half, a move glued to its number (`3.31-27`) after it.
        let spot = |line, column| Spot { line, column };
        assert_eq!(games[0].spots, vec![spot(4, 16), spot(4, 25), spot(4, 58), spot(4, 64), spot(5, 3)]);
        assert_eq!(games[1].spots, vec![spot(8, 4)]);
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
    fn the_game_type_says_the_rules_both_ways() {
        use crate::geometry::Eight;
        let mut game = Game::new(Position::<Eight>::initial(Rules::ENGLISH).unwrap());
        game.play_text("11-15").unwrap();
        game.play_text("22-18").unwrap();
        let text = write_pdn(&game, &[("Event", "test")], "*");
        assert!(text.contains("[GameType \"21\"]") && !text.contains("FEN") && !text.contains("[Rules"), "{text}");
        assert!(text.contains("1. 11-15 22-18 *"), "Black opens move 1 in English draughts: {text}");
        let read = &parse_pdn(&text)[0];
        assert_eq!(read.rules(Rules::INTERNATIONAL), Ok(Rules::ENGLISH));
        assert_eq!(replay_with::<Eight>(read, Rules::ENGLISH).unwrap().moves(), game.moves());
        assert!(matches!(replay(read), Err(ReplayError::BadRules(_))), "an 8×8 game is no international one");

        let custom = Rules::parse("russian,mandatory=0").unwrap();
        let game = Game::new(Position::<Eight>::initial(custom).unwrap());
        let text = write_pdn(&game, &[], "*");
        assert!(text.contains("[GameType \"25\"]") && text.contains("[Rules \"russian,mandatory=0\"]"), "{text}");
        assert_eq!(parse_pdn(&text)[0].rules(Rules::INTERNATIONAL), Ok(custom));
        let brazilian = &parse_pdn("[GameType \"26,W,8,8,A0,0\"]\n1. 22-18 *")[0];
        assert_eq!(brazilian.rules(Rules::INTERNATIONAL), Ok(Rules::BRAZILIAN));
        assert!(parse_pdn("[GameType \"30\"]\n*")[0].rules(Rules::INTERNATIONAL).is_err());
        let daily = write_pdn(&Game::new(Position::<Ten>::initial(Rules::DAILY).unwrap()), &[], "*");
        assert!(daily.contains("[GameType \"20\"]") && !daily.contains("[Rules"), "{daily}");
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
        assert_eq!(again.start().to_fen(), game.start().to_fen());
    }
}
