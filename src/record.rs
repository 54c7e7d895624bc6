//! A game as kept (by the server, or offline by the player's device) and
//! every checked way to extend it: the player's move and the computer's
//! reply, the electronic board's take-backs, hints, side switches and
//! playing on, resignations and agreed draws. Pure computation, no
//! storage: the server stores what these return over what it read, and the
//! browser, offline, keeps it on the device. The same code on both sides is
//! what makes an offline game's replies those of the server.

use crate::engine::any::{AnyGame, AnyGameError, AnyPosition};
use crate::engine::bot::{self, Level};
use crate::engine::{Color, DrawReason, Outcome, WinReason};
use crate::protocol::game::StoredGame;
use crate::protocol::{fen_error_fr, move_text_error_fr, replay_stored, AppError, GameKind, GameSetup, GameView};
use serde::{Deserialize, Serialize};

/// Why a game cannot be extended: a refusal the player reads, or a kept
/// game that no longer replays (a fault, never the player's doing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    Refused(AppError),
    Corrupt { game: String, why: String },
}

impl From<AppError> for RecordError {
    fn from(refusal: AppError) -> RecordError {
        RecordError::Refused(refusal)
    }
}

/// What the player reads: a kept game that does not replay is a fault
/// (the server logs its cause on its own way to the page).
impl From<RecordError> for AppError {
    fn from(error: RecordError) -> AppError {
        match error {
            RecordError::Refused(refusal) => refusal,
            RecordError::Corrupt { .. } => AppError::Internal,
        }
    }
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::Refused(refusal) => refusal.fmt(f),
            RecordError::Corrupt { game, why } => write!(f, "game {game} does not replay: {why}"),
        }
    }
}

impl std::error::Error for RecordError {}

pub type RecordResult<T> = Result<T, RecordError>;

/// Each move counts at least this much thinking time.
pub const MIN_THINK_MS: u64 = 300;

/// A game as kept: by the server, or offline by the device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub id: String,
    pub player_id: String,
    pub kind: GameKind,
    pub day: String,
    /// The rules, the computer's level and the player's side.
    pub setup: GameSetup,
    pub seed: u64,
    /// The computer's version ([`bot::BOT_VERSION`]) the game is played against.
    pub bot_version: u32,
    pub start_fen: String,
    pub moves: Vec<String>,
    pub outcome: Option<Outcome>,
    pub active_ms: u64,
    pub last_answer_ms: i64,
    pub created_at: i64,
    /// On the electronic board: played on past its endgame draw.
    pub played_on: bool,
    /// Bumped by every write. The ply count alone cannot tell a stale write
    /// once a take-back has lowered it: writes check both.
    pub revision: i64,
}

impl GameRecord {
    pub fn view(&self) -> GameView {
        GameView {
            id: self.id.clone(),
            kind: self.kind,
            day: self.day.clone(),
            setup: self.setup.clone(),
            start_fen: self.start_fen.clone(),
            moves: self.moves.clone(),
            outcome: self.outcome,
            active_ms: self.active_ms,
            score: None,
            needs_pseudonym: false,
            played_on: self.played_on,
            on_device: false,
        }
    }

    /// The stored moves replayed through the rules. Every move stored was
    /// checked (the player's) or computed (the computer's) by the server,
    /// so a move request only needs this; scoring uses
    /// [`GameRecord::replay_verified`].
    pub fn replay(&self) -> RecordResult<AnyGame> {
        let stored = StoredGame {
            kind: self.kind,
            rules: self.setup.rules,
            start_fen: &self.start_fen,
            moves: &self.moves,
            outcome: self.outcome,
            played_on: self.played_on,
        };
        replay_stored(&stored).map_err(|e| self.corrupt(e))
    }

    pub fn level(&self) -> Level {
        self.setup.level
    }

    /// The side the computer plays, if it plays one.
    pub fn computer_side(&self) -> Option<Color> {
        self.kind.against_computer().then_some(!self.setup.player)
    }

    /// The stored moves replayed through the rules, and each computer move
    /// recomputed from the seed and level: the proof behind a score. The
    /// replies do not depend on each other: they are recomputed on up to
    /// `threads` threads. (An electronic-board game is never scored, and
    /// its player may switch sides or levels: only its moves are checked.)
    pub fn replay_verified(&self, threads: usize) -> RecordResult<AnyGame> {
        let game = self.replay()?;
        if let Some(side) = self.computer_side().filter(|_| self.kind != GameKind::Electronic) {
            game.verify_replies(side, self.level(), self.seed, threads).map_err(|e| self.corrupt(e))?;
        }
        Ok(game)
    }

    fn corrupt(&self, why: impl std::fmt::Display) -> RecordError {
        RecordError::Corrupt { game: self.id.clone(), why: why.to_string() }
    }
}

/// What a new game needs.
pub struct NewGame<'a> {
    pub player_id: &'a str,
    pub kind: GameKind,
    pub day: &'a str,
    /// As the player asked; [`GameSetup::for_kind`] settles what the kind
    /// allows.
    pub setup: GameSetup,
    pub seed: u64,
    /// A set-up position in FEN (the test hook's); the rules' start
    /// position when `None`.
    pub start_fen: Option<&'a str>,
    pub now_ms: i64,
}

/// A new game, not stored yet: its record, with the computer's first move
/// when it is to move first (the player took the side that does not
/// start).
pub fn new_record(new: NewGame<'_>) -> RecordResult<Played> {
    let setup = new.setup.for_kind(new.kind).map_err(|e| AppError::BadRequest(e.0))?;
    let rules = setup.rules;
    let start = match new.start_fen {
        Some(fen) => AnyPosition::from_fen(fen, rules).map_err(|e| AppError::BadRequest(fen_error_fr(&e)))?,
        None => AnyPosition::initial(rules).map_err(|e| AppError::BadRequest(e.to_string()))?,
    };
    let mut record = GameRecord {
        id: uuid::Uuid::new_v4().to_string(),
        player_id: new.player_id.to_string(),
        kind: new.kind,
        day: new.day.to_string(),
        setup,
        seed: new.seed,
        bot_version: bot::BOT_VERSION,
        start_fen: start.to_fen(),
        moves: Vec::new(),
        outcome: None,
        active_ms: 0,
        last_answer_ms: new.now_ms,
        created_at: new.now_ms,
        played_on: false,
        revision: 0,
    };
    let mut game = record.replay()?;
    if new.start_fen.is_some() && game.is_over() {
        return Err(AppError::BadRequest(
            "Dans cette position, la partie est déjà finie : le camp au trait n'a pas de coup.".into(),
        )
        .into());
    }
    let added = computer_moves_if_its_turn(&mut record, &mut game)?;
    Ok(Played { record, added, expected_plies: 0, expected_outcome: None, expected_revision: 0 })
}

/// A new game with the player's first move and the computer's answer, not
/// stored yet: [`Db::insert_game`] stores them together. Pure computation (the
/// answer is a search), so it runs without the database.
pub fn new_record_with_move(new: NewGame<'_>, first: PlayerMove<'_>) -> RecordResult<Played> {
    let now_ms = new.now_ms;
    let opening = new_record(new)?;
    let mut played = apply_player_move(&opening.record, &opening.record.player_id, first, now_ms)?;
    played.added.splice(0..0, opening.added);
    // Stored by `Db::insert_game`, as a new game.
    played.expected_plies = 0;
    played.record.revision = 0;
    Ok(played)
}

/// Plays a move the server itself computed: one the rules refuse is a bug
/// in the engine, not the player's doing.
fn play_computed(game: &mut AnyGame, mv: &str) -> RecordResult<()> {
    game.play_long(mv)
        .map(drop)
        .map_err(|e| RecordError::Corrupt { game: "(new)".into(), why: format!("computed move refused: {e}") })
}

/// The outcome of applying a player's move: the new plies to store.
#[derive(Clone, Debug)]
pub struct Played {
    pub record: GameRecord,
    /// Long-form move and clamped thinking time (the player's move only).
    pub added: Vec<(String, Option<u64>)>,
    /// The ply count the stored game must still have for the write to apply.
    pub expected_plies: usize,
    /// The outcome it must still have (none, but for playing on past the
    /// electronic board's endgame draw).
    pub expected_outcome: Option<Outcome>,
    /// The revision it must still have: the one read.
    pub expected_revision: i64,
}

impl Played {
    /// `next`, computed from `read`, to store over it: the write applies
    /// only if the stored game is still `read` (same plies, outcome and
    /// revision), and makes the next revision.
    fn after(
        read: &GameRecord,
        mut next: GameRecord,
        added: Vec<(String, Option<u64>)>,
        outcome: Option<Outcome>,
    ) -> Played {
        next.revision = read.revision + 1;
        Played {
            record: next,
            added,
            expected_plies: read.moves.len(),
            expected_outcome: outcome,
            expected_revision: read.revision,
        }
    }
}

/// What the player sent with a move.
pub struct PlayerMove<'a> {
    /// Plies of the game the player saw: a move sent from a stale page
    /// (another tab, a retried request) is refused, not played elsewhere.
    pub seen_plies: usize,
    /// The move, long form.
    pub text: &'a str,
    /// The player's own count of thinking time.
    pub think_ms: u64,
}

/// Checks and plays the player's move, then the computer's reply. Pure
/// computation: no database, so the bot's search holds no lock.
pub fn apply_player_move(
    record: &GameRecord,
    player_id: &str,
    sent: PlayerMove<'_>,
    now_ms: i64,
) -> RecordResult<Played> {
    let PlayerMove { seen_plies, text, think_ms } = sent;
    if record.player_id != player_id {
        return Err(AppError::NotYourGame.into());
    }
    if record.outcome.is_some() {
        return Err(AppError::GameOver.into());
    }
    if record.computer_side().is_some() && record.bot_version != bot::BOT_VERSION {
        return Err(AppError::ComputerChanged.into());
    }
    if record.moves.len() != seen_plies {
        return Err(AppError::Conflict.into());
    }
    if text.len() > 200 {
        return Err(AppError::BadRequest("coup trop long".into()).into());
    }
    let mut game = record.replay()?;
    if game.is_over() {
        return Err(AppError::GameOver.into());
    }
    if record.computer_side() == Some(game.turn()) {
        return Err(AppError::NotYourTurn.into());
    }
    let played = game.play_long(text).map_err(|e| match e {
        AnyGameError::Text(e) => AppError::IllegalMove(move_text_error_fr(&e)),
        other => AppError::IllegalMove(other.to_string()),
    })?;
    let think = clamp_think_ms(think_ms, now_ms - record.last_answer_ms);
    let mut next = record.clone();
    next.moves.push(played.clone());
    let mut added = vec![(played, Some(think))];
    added.extend(computer_moves_if_its_turn(&mut next, &mut game)?);
    next.active_ms += think;
    next.last_answer_ms = now_ms;
    Ok(Played::after(record, next, added, None))
}

/// What every electronic-board request checks first: an electronic-board
/// game of `player_id`, seen at `seen_plies` plies.
fn check_electronic(record: &GameRecord, player_id: &str, seen_plies: usize) -> RecordResult<()> {
    if record.player_id != player_id {
        return Err(AppError::NotYourGame.into());
    }
    if record.kind != GameKind::Electronic {
        return Err(AppError::BadRequest("réservé aux dames électroniques".into()).into());
    }
    if record.moves.len() != seen_plies {
        return Err(AppError::Conflict.into());
    }
    Ok(())
}

/// The game of [`check_electronic`] replayed, still going unless
/// `finished_ok`.
fn electronic_game(
    record: &GameRecord,
    player_id: &str,
    seen_plies: usize,
    finished_ok: bool,
) -> RecordResult<AnyGame> {
    check_electronic(record, player_id, seen_plies)?;
    let game = record.replay()?;
    if game.is_over() && !finished_ok {
        return Err(AppError::GameOver.into());
    }
    Ok(game)
}

/// The computer plays the side to move if it is its turn (after the
/// player's move, at a game's start, after switching sides or playing on),
/// and the record takes the move and the outcome.
fn computer_moves_if_its_turn(record: &mut GameRecord, game: &mut AnyGame) -> RecordResult<Vec<(String, Option<u64>)>> {
    let mut added = Vec::new();
    if record.computer_side() == Some(game.turn()) {
        #[cfg(feature = "ssr")]
        let started = std::time::Instant::now();
        if let Some(reply) = game.bot_reply(record.level(), record.seed) {
            #[cfg(feature = "ssr")]
            {
                let level = record.level().name();
                metrics::histogram!("dames_bot_search_seconds", "level" => level)
                    .record(started.elapsed().as_secs_f64());
                metrics::histogram!("dames_bot_search_nodes", "level" => level).record(reply.nodes as f64);
            }
            play_computed(game, &reply.long)?;
            record.moves.push(reply.long.clone());
            added.push((reply.long, None));
        }
    }
    record.outcome = game.outcome();
    Ok(added)
}

/// Electronic board, "Changer de camp": the computer takes over the side to
/// move (and plays it at once), the player takes the other side.
pub fn switch_sides(record: &GameRecord, player_id: &str, seen_plies: usize, now_ms: i64) -> RecordResult<Played> {
    let mut game = electronic_game(record, player_id, seen_plies, false)?;
    let mut next = record.clone();
    next.setup.player = !game.turn();
    next.last_answer_ms = now_ms;
    let added = computer_moves_if_its_turn(&mut next, &mut game)?;
    Ok(Played::after(record, next, added, None))
}

/// Electronic board: the computer plays at `level` (a step of the ladder)
/// from now on.
pub fn set_level(record: &GameRecord, player_id: &str, seen_plies: usize, level: Level) -> RecordResult<Played> {
    check_electronic(record, player_id, seen_plies)?;
    let mut next = record.clone();
    next.setup = GameSetup { level, ..record.setup.clone() }
        .for_kind(GameKind::Electronic)
        .map_err(|e| AppError::BadRequest(e.0))?;
    Ok(Played::after(record, next, Vec::new(), record.outcome))
}

/// Electronic board, "Continuer la partie": play on past the endgame
/// rule's draw (the computer moves at once if it is its turn).
pub fn play_on(record: &GameRecord, player_id: &str, seen_plies: usize, now_ms: i64) -> RecordResult<Played> {
    let mut game = electronic_game(record, player_id, seen_plies, true)?;
    let declared = game.outcome();
    if declared != Some(Outcome::Draw(DrawReason::EndgameLimit)) {
        return Err(AppError::BadRequest("il n'y a pas de nulle à dépasser".into()).into());
    }
    game.play_on().map_err(|e| RecordError::Corrupt { game: record.id.clone(), why: e.to_string() })?;
    let mut next = record.clone();
    next.played_on = true;
    next.last_answer_ms = now_ms;
    let added = computer_moves_if_its_turn(&mut next, &mut game)?;
    Ok(Played::after(record, next, added, declared))
}

/// A take-back, checked: the game cut to `record.moves.len()` plies, to
/// store over the game read at `expected_plies` plies and
/// `expected_revision`.
#[derive(Clone, Debug)]
pub struct TakenBack {
    pub record: GameRecord,
    pub expected_plies: usize,
    pub expected_revision: i64,
}

/// Electronic board, "Reprendre": the game goes back to `to_ply` plies,
/// which must leave the player to move (the computer's reply is taken back
/// with the player's move).
pub fn take_back(record: &GameRecord, player_id: &str, seen_plies: usize, to_ply: usize) -> RecordResult<TakenBack> {
    check_electronic(record, player_id, seen_plies)?;
    if to_ply >= record.moves.len() {
        return Err(AppError::BadRequest("rien à reprendre".into()).into());
    }
    let mut next = record.clone();
    next.moves.truncate(to_ply);
    // The replay plays on past the endgame draw if the players chose to;
    // a choice made later than `to_ply` is taken back with the moves.
    let game = next.replay()?;
    next.played_on = game.has_played_on();
    next.outcome = game.outcome();
    if next.computer_side() == Some(game.turn()) || game.is_over() {
        return Err(AppError::BadRequest("on reprend jusqu'à un coup du joueur".into()).into());
    }
    next.revision += 1;
    Ok(TakenBack { record: next, expected_plies: record.moves.len(), expected_revision: record.revision })
}

/// Electronic board, "Conseil": the move the computer at the game's level
/// would play for the player here (what `dames bestmove <FEN> --level L`
/// prints), not played.
pub fn hint(record: &GameRecord, player_id: &str, seen_plies: usize) -> RecordResult<crate::engine::any::MoveChoice> {
    let game = electronic_game(record, player_id, seen_plies, false)?;
    if record.computer_side() == Some(game.turn()) {
        return Err(AppError::NotYourTurn.into());
    }
    game.position().best_move(record.level()).ok_or_else(|| AppError::GameOver.into())
}

/// The thinking time the server credits a move with: what the browser
/// reports, but never more than the time the server saw pass since its last
/// answer, and never less than 0.3 s.
pub fn clamp_think_ms(reported_ms: u64, wall_ms: i64) -> u64 {
    let wall = wall_ms.max(0) as u64;
    reported_ms.min(wall).max(MIN_THINK_MS)
}

/// A game its players ended (resignation, agreed draw): `record` with its
/// outcome, to store over the game read at `expected_revision` (same plies).
#[derive(Clone, Debug)]
pub struct Ended {
    pub record: GameRecord,
    pub finished_at: i64,
    pub expected_revision: i64,
}

/// The player gives up; in a two-player game, the side to move does.
pub fn resign(record: &GameRecord, player_id: &str, now_ms: i64) -> RecordResult<Ended> {
    end_by_players(record, player_id, None, now_ms, |record, game| {
        let loser = if record.kind.against_computer() { record.setup.player } else { game.turn() };
        Ok(Outcome::Win { winner: !loser, reason: WinReason::Resignation })
    })
}

/// The two players of a two-player game agree to a draw (one offered it
/// on the page, the other accepted). `seen_plies` is the ply count the
/// page showed: an offer made on an older position is refused.
pub fn agree_draw(record: &GameRecord, player_id: &str, seen_plies: usize, now_ms: i64) -> RecordResult<Ended> {
    end_by_players(record, player_id, Some(seen_plies), now_ms, |record, _| {
        if record.kind.against_computer() {
            return Err(AppError::BadRequest("la nulle d'un commun accord se joue à deux".into()).into());
        }
        Ok(Outcome::Draw(DrawReason::Agreement))
    })
}

/// Ends a game as its players decide, once it is checked to be theirs and
/// still going.
fn end_by_players(
    record: &GameRecord,
    player_id: &str,
    seen_plies: Option<usize>,
    now_ms: i64,
    decide: impl FnOnce(&GameRecord, &AnyGame) -> RecordResult<Outcome>,
) -> RecordResult<Ended> {
    if record.player_id != player_id {
        return Err(AppError::NotYourGame.into());
    }
    let game = record.replay()?;
    if record.outcome.is_some() || game.is_over() {
        return Err(AppError::GameOver.into());
    }
    if seen_plies.is_some_and(|seen| seen != record.moves.len()) {
        return Err(AppError::Conflict.into());
    }
    let mut next = record.clone();
    next.outcome = Some(decide(record, &game)?);
    next.revision += 1;
    Ok(Ended { record: next, finished_at: now_ms, expected_revision: record.revision })
}
