//! What the server sends the page about a game: its set-up (rules, level,
//! the player's side), the start position and the moves, with its score
//! once won. Everything else (the position, whose turn, the notation, the
//! last move) is derived from them with the engine, the same way on both
//! sides.

use super::error::{clip_quote, rules_error_fr};
use crate::engine::any::{AnyGame, AnyPosition};
use crate::engine::bot::Level;
use crate::engine::{Color, Outcome, Preset, Rules, WinReason};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum GameKind {
    /// The challenge of the UTC day: the day's seed, level intermediaire,
    /// the daily rules, the player White.
    Daily,
    /// A game against the computer: a fresh seed, the rules, level and
    /// colour the player picks.
    Free,
    /// Two people on one device, both sides played from the page.
    TwoPlayers,
    /// The electronic board: international rules, a step of the ladder,
    /// take-backs, hints, switching sides, set-up positions, and the
    /// one-king endgame rule. Never scored.
    Electronic,
}
crate::engine::deserialize_by_name!(GameKind { Daily, Free, TwoPlayers, Electronic });

impl GameKind {
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Daily => "daily",
            GameKind::Free => "free",
            GameKind::TwoPlayers => "two_players",
            GameKind::Electronic => "electronic",
        }
    }

    pub fn from_name(name: &str) -> Option<GameKind> {
        match name {
            "daily" => Some(GameKind::Daily),
            "free" => Some(GameKind::Free),
            "two_players" => Some(GameKind::TwoPlayers),
            "electronic" => Some(GameKind::Electronic),
            _ => None,
        }
    }

    /// Whether the computer plays one side.
    pub const fn against_computer(self) -> bool {
        !matches!(self, GameKind::TwoPlayers)
    }
}

/// How a game is set up before it starts: its rules, the computer's level
/// and the side the player takes (White in a two-player game, whose
/// players share the page).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSetup {
    /// The rules: in their text form on the wire (`english`,
    /// `international,size=8`), checked when read.
    pub rules: Rules,
    pub level: Level,
    pub player: Color,
}

impl GameSetup {
    /// The only set-up of a daily challenge.
    pub fn daily() -> GameSetup {
        GameSetup { rules: Rules::DAILY, level: Level::Intermediaire, player: Color::White }
    }

    /// A game with these rules, level and colour.
    pub fn new(rules: Rules, level: Level, player: Color) -> GameSetup {
        GameSetup { rules, level, player }
    }

    /// What a game of `kind` is played with when the player asks for
    /// nothing in particular.
    pub fn default_for(kind: GameKind) -> GameSetup {
        match kind {
            GameKind::Daily => GameSetup::daily(),
            GameKind::Free | GameKind::TwoPlayers => {
                GameSetup::new(Rules::INTERNATIONAL, Level::Intermediaire, Color::White)
            }
            // A beginner's step: the player climbs from there.
            GameKind::Electronic => GameSetup::new(Rules::ELECTRONIC, Level::LADDER[1], Color::White),
        }
    }

    /// The set-up a game of `kind` is actually played with: a daily
    /// challenge never changes rules, level or colour, a two-player game
    /// has no computer to give a level or a side to, and the electronic
    /// board plays its own rules at a step of its ladder. (The rules
    /// themselves were checked when the set-up was read.)
    pub fn for_kind(&self, kind: GameKind) -> Result<GameSetup, SetupError> {
        let rules = self.rules;
        Ok(match kind {
            GameKind::Daily => GameSetup::daily(),
            GameKind::Free if self.level.is_ladder() => {
                return Err(SetupError("Les niveaux 1 à 8 sont ceux des dames électroniques.".into()));
            }
            GameKind::Free => GameSetup::new(rules, self.level, self.player),
            GameKind::TwoPlayers => GameSetup::new(rules, Level::default(), Color::White),
            GameKind::Electronic => {
                if !self.level.is_ladder() {
                    return Err(SetupError("Les dames électroniques se jouent aux niveaux 1 à 8.".into()));
                }
                GameSetup::new(Rules::ELECTRONIC, self.level, self.player)
            }
        })
    }

    /// The set-up an address asks for: `regles` in the text form,
    /// `niveau` a level's name, `couleur` `blancs` or `noirs`. Every
    /// parameter is optional; `None` when none is given.
    pub fn from_query(
        kind: GameKind,
        regles: Option<&str>,
        niveau: Option<&str>,
        couleur: Option<&str>,
    ) -> Result<Option<GameSetup>, SetupError> {
        if regles.is_none() && niveau.is_none() && couleur.is_none() {
            return Ok(None);
        }
        let default = GameSetup::default_for(kind);
        let rules = match regles {
            Some(text) => Rules::parse(text).map_err(|e| SetupError(rules_error_fr(&e)))?,
            None => Rules::INTERNATIONAL,
        };
        let level = match niveau {
            Some(name) => name.parse::<Level>().map_err(|_| {
                SetupError(format!("Niveau inconnu : « {} » (debutant, intermediaire ou fort).", clip_quote(name)))
            })?,
            None => default.level,
        };
        let player = match couleur {
            Some("blancs") | None => Color::White,
            Some("noirs") => Color::Black,
            Some(other) => {
                return Err(SetupError(format!("Couleur inconnue : « {} » (blancs ou noirs).", clip_quote(other))))
            }
        };
        GameSetup::new(rules, level, player).for_kind(kind).map(Some)
    }

    /// Whether a win in a game of `kind` with this set-up goes on a
    /// leaderboard: the daily challenge, and free games as White in one of
    /// the three standard variants.
    pub fn is_ranked(&self, kind: GameKind) -> bool {
        match kind {
            GameKind::Daily => true,
            GameKind::Free => self.player == Color::White && ranked_variant(&self.rules).is_some(),
            GameKind::TwoPlayers | GameKind::Electronic => false,
        }
    }
}

/// The variant whose free-game leaderboards a game with `rules` belongs
/// to: international (the daily rules included, which free games were
/// played under before variants existed), English or Russian.
pub fn ranked_variant(rules: &Rules) -> Option<Preset> {
    rules.variant().filter(|p| *p != Preset::Brazilian)
}

/// The address of a free-game leaderboard.
pub fn free_board_href(level: Level, variant: Preset) -> String {
    match variant {
        Preset::International => format!("/classement?niveau={}", level.name()),
        _ => format!("/classement?niveau={}&variante={}", level.name(), variant.name()),
    }
}

/// A set-up the page or the address got wrong, in French.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A game as the page receives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameView {
    /// Empty for a game not started yet: the page shows the start position,
    /// and the server stores the game when the player makes the first move
    /// (a page view writes nothing).
    pub id: String,
    pub kind: GameKind,
    /// The UTC day the game started (YYYY-MM-DD).
    pub day: String,
    /// The rules, the computer's level and the player's side.
    pub setup: GameSetup,
    pub start_fen: String,
    /// Every ply so far in long form (`32-28`, `28x19{23}`).
    pub moves: Vec<String>,
    /// How it ended, when it has (resignation and agreed draws included,
    /// which the moves alone do not show).
    pub outcome: Option<Outcome>,
    /// The player's thinking time as the server counted it.
    pub active_ms: u64,
    /// The score, once the server has verified a win.
    #[serde(default)]
    pub score: Option<ScoreView>,
    /// The player has a score but no pseudonym yet: ask for one.
    #[serde(default)]
    pub needs_pseudonym: bool,
    /// An electronic-board game whose players chose to play on after its
    /// endgame rule declared a draw.
    #[serde(default)]
    pub played_on: bool,
    /// Kept on the player's device (a game played offline): the browser
    /// answers its requests itself, and the server never sees it.
    #[serde(default)]
    pub on_device: bool,
}

impl GameView {
    /// A game the player has not started: the start position, no id.
    pub fn unstarted(kind: GameKind, day: String, setup: GameSetup) -> GameView {
        let start = AnyPosition::initial(setup.rules).map(|p| p.to_fen()).unwrap_or_default();
        GameView {
            id: String::new(),
            kind,
            day,
            setup,
            start_fen: start,
            moves: Vec::new(),
            outcome: None,
            active_ms: 0,
            score: None,
            needs_pseudonym: false,
            played_on: false,
            on_device: false,
        }
    }

    pub fn level(&self) -> Level {
        self.setup.level
    }

    /// Whether the server has stored this game yet.
    pub fn is_started(&self) -> bool {
        !self.id.is_empty()
    }

    /// The game, replayed from its start with the engine.
    pub fn replay(&self) -> Result<AnyGame, CorruptView> {
        replay_stored(&StoredGame {
            kind: self.kind,
            rules: self.setup.rules,
            start_fen: &self.start_fen,
            moves: &self.moves,
            outcome: self.outcome,
            played_on: self.played_on,
        })
    }
}

/// A game view whose moves do not replay: the server sent something this
/// client cannot follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorruptView(pub String);

impl std::fmt::Display for CorruptView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A game as stored and sent.
pub struct StoredGame<'a> {
    pub kind: GameKind,
    pub rules: Rules,
    pub start_fen: &'a str,
    /// Long-form moves.
    pub moves: &'a [String],
    pub outcome: Option<Outcome>,
    pub played_on: bool,
}

/// A game as stored and sent replayed with the engine: every move checked,
/// a resignation or an agreed draw applied, and on the electronic board its
/// endgame rule (played on past it if the players chose to). The browser
/// and the server read games through this one function.
pub fn replay_stored(stored: &StoredGame<'_>) -> Result<AnyGame, CorruptView> {
    let start = AnyPosition::from_fen(stored.start_fen, stored.rules).map_err(|e| CorruptView(e.to_string()))?;
    let mut game = match stored.kind {
        GameKind::Electronic => AnyGame::electronic(start),
        _ => AnyGame::new(start),
    };
    let play_on = |game: &mut AnyGame| {
        if stored.played_on && game.outcome() == Some(Outcome::Draw(crate::engine::DrawReason::EndgameLimit)) {
            let _ = game.play_on();
        }
    };
    for text in stored.moves {
        play_on(&mut game);
        game.play_long(text).map_err(|e| CorruptView(e.to_string()))?;
    }
    play_on(&mut game);
    match stored.outcome {
        Some(Outcome::Win { winner, reason: WinReason::Resignation }) => {
            let _ = game.resign(!winner);
        }
        Some(Outcome::Draw(crate::engine::DrawReason::Agreement)) => {
            let _ = game.agree_draw();
        }
        _ => {}
    }
    Ok(game)
}

/// A win is worth this much before pieces and time (the page explains the
/// score with it; the server computes it).
pub const SCORE_BASE: u64 = 3000;
/// Each of the player's pieces left at the end (man or king) adds this.
pub const SCORE_PER_PIECE: u64 = 300;

/// A won game's score as the server computed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreView {
    pub score: u64,
    pub pieces: u32,
    pub seconds: u64,
    /// The player's rank on this game's leaderboard (with their best score).
    pub rank: Option<u64>,
    /// The player's best score on that leaderboard.
    pub best: u64,
}

impl ScoreView {
    /// How the score is made: `3000 + 6 pièces × 300 − 900 s`.
    pub fn breakdown(&self) -> String {
        format!("{SCORE_BASE} + {} pièces × {SCORE_PER_PIECE} − {} s", self.pieces, self.seconds)
    }
}

/// One row of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreLine {
    pub rank: u64,
    /// Never sent: it is the player's only credential.
    #[serde(skip)]
    pub player_id: String,
    pub pseudonym: Option<String>,
    pub game_id: String,
    pub score: u64,
    pub pieces: u32,
    pub seconds: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(moves: &[&str]) -> GameView {
        GameView {
            moves: moves.iter().map(|s| s.to_string()).collect(),
            id: "x".into(),
            ..GameView::unstarted(GameKind::Free, "2026-11-29".into(), GameSetup::daily())
        }
    }

    #[test]
    fn a_view_replays() {
        let game = view(&["32-28", "19-23", "28x19{23}"]).replay().unwrap();
        assert_eq!(game.ply_count(), 3);
        assert_eq!(game.position().to_fen(), "B:W19,31,33-50:B1-18,20");
    }

    #[test]
    fn a_view_that_does_not_replay_is_refused() {
        // Legal moves, but a capture that takes the wrong piece.
        assert!(view(&["32-28", "19-23", "28x19{24}"]).replay().is_err());
        assert!(view(&["32-29"]).replay().is_err());
        let mut bad = view(&[]);
        bad.start_fen = "nonsense".into();
        assert!(bad.replay().is_err());
        let mut bad = view(&[]);
        bad.setup.rules = Rules::ENGLISH;
        assert!(bad.replay().is_err(), "a 10×10 position under 8×8 rules");
    }

    #[test]
    fn an_unstarted_game_has_no_id_and_the_start_position_of_its_rules() {
        let v = GameView::unstarted(GameKind::Daily, "2026-11-29".into(), GameSetup::daily());
        assert!(!v.is_started());
        assert_eq!(v.replay().unwrap().position().to_fen(), AnyPosition::initial(Rules::DAILY).unwrap().to_fen());
        assert_eq!(v.replay().unwrap().rules(), Rules::DAILY);
        assert!(view(&[]).is_started());
        let english = GameSetup::new(Rules::ENGLISH, Level::Debutant, Color::Black);
        let v = GameView::unstarted(GameKind::Free, "2026-11-29".into(), english);
        assert_eq!(v.start_fen, "B:W21-32:B1-12");
    }

    #[test]
    fn an_address_sets_up_a_game_or_says_in_french_what_is_wrong() {
        let q = |kind, r, n, c| GameSetup::from_query(kind, r, n, c);
        assert_eq!(q(GameKind::Free, None, None, None), Ok(None));
        let setup = q(GameKind::Free, Some("russian"), Some("debutant"), Some("noirs")).unwrap().unwrap();
        assert_eq!(setup, GameSetup::new(Rules::RUSSIAN, Level::Debutant, Color::Black));
        assert!(!setup.is_ranked(GameKind::Free), "as Black: unranked");
        let custom = q(GameKind::Free, Some("international,size=8,flying=0"), None, None).unwrap().unwrap();
        assert_eq!(custom.rules.to_string(), "brazilian,flying=0");
        assert!(!custom.is_ranked(GameKind::Free), "custom rules: unranked");
        assert!(q(GameKind::Free, Some("english"), None, None).unwrap().unwrap().is_ranked(GameKind::Free));
        assert!(q(GameKind::Free, Some("checkers"), None, None).unwrap_err().0.contains("Variante inconnue"));
        assert!(q(GameKind::Free, Some("english,kings=1"), None, None).unwrap_err().0.contains("Règle inconnue"));
        assert!(q(GameKind::Free, Some("english,size=9"), None, None).unwrap_err().0.contains("size"));
        assert!(q(GameKind::Free, Some("english,rows=4"), None, None).unwrap_err().0.contains("rangées"));
        assert!(q(GameKind::Free, None, Some("maitre"), None).unwrap_err().0.contains("Niveau inconnu"));
        assert!(q(GameKind::Free, None, None, Some("rouges")).unwrap_err().0.contains("Couleur inconnue"));
        // The daily challenge never changes; two players have no computer.
        let daily = GameSetup::new(Rules::ENGLISH, Level::Fort, Color::Black).for_kind(GameKind::Daily).unwrap();
        assert_eq!(daily, GameSetup::daily());
        let two = q(GameKind::TwoPlayers, Some("english"), None, Some("noirs")).unwrap().unwrap();
        assert_eq!((two.player, two.is_ranked(GameKind::TwoPlayers)), (Color::White, false));
        assert_eq!(ranked_variant(&Rules::DAILY), Some(Preset::International));
        assert_eq!(ranked_variant(&Rules::BRAZILIAN), None);
    }

    #[test]
    fn a_set_up_with_bad_rules_is_refused_when_read() {
        let json = |rules: &str| format!(r#"{{"rules":"{rules}","level":"Fort","player":"White"}}"#);
        let setup: GameSetup = serde_json::from_str(&json("english,mandatory=0")).unwrap();
        assert_eq!(setup.rules, Rules { mandatory: false, ..Rules::ENGLISH });
        assert_eq!(serde_json::to_string(&setup).unwrap(), json("english,mandatory=0"));
        for bad in ["checkers", "english,size=9", ""] {
            assert!(serde_json::from_str::<GameSetup>(&json(bad)).is_err(), "{bad:?} is not read as any rules");
        }
    }

    #[test]
    fn a_score_explains_itself() {
        let s = ScoreView { score: 3900, pieces: 6, seconds: 900, rank: Some(1), best: 3900 };
        assert_eq!(s.breakdown(), "3000 + 6 pièces × 300 − 900 s");
    }
}
