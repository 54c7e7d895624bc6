//! A game against the computer or between two players on one device: the
//! server functions that load and extend it, and the game screen (the
//! board beside its panel, see [`super::panel`]).

use super::board::Board;
use super::describe::{last_move, pdn, rule_lines, variant_name, view_title, ShownMove};
use super::input::MoveOptions;
use super::panel::{Facts, GameButtons, MoveList, PdnExport, StatusLine, TypedMoveForm, WinPanel};
use crate::engine::any::{AnyGame, AnyPosition};
use crate::engine::bot::Level;
use crate::engine::{Color, DrawReason, Outcome, Rules, WinReason};
use crate::protocol::game::ENDGAME_LIMIT_MOVES;
use crate::protocol::{AppError, GameKind, GameSetup, GameView};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The player's current game of this kind (the daily challenge of today,
/// or the latest game of the kind), or one not started yet: reading a page
/// stores nothing. `setup` (from the address) asks for a game set up so.
#[server(endpoint = "partie/charger")]
pub async fn load_game(kind: GameKind, setup: Option<GameSetup>) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::current_game(&api::RequestContext::current()?, kind, setup).await?)
}

/// Starts the game with the player's first move.
#[server(endpoint = "partie/commencer")]
pub async fn start_game(
    kind: GameKind,
    rules: String,
    level: Level,
    player: Color,
    mv: String,
) -> Result<GameView, AppError> {
    use crate::server::api;
    let setup = GameSetup { rules, level, player };
    Ok(api::start_game(&api::RequestContext::current()?, kind, setup, mv).await?)
}

/// A new game, stored at once: "Rejouer", "Nouvelle partie", or a game the
/// computer opens.
#[server(endpoint = "partie/nouvelle")]
pub async fn new_game(kind: GameKind, rules: String, level: Level, player: Color) -> Result<GameView, AppError> {
    use crate::server::api;
    let setup = GameSetup { rules, level, player };
    Ok(api::new_game(&api::RequestContext::current()?, kind, setup).await?)
}

/// The player's game as stored, to catch up after a conflict.
#[server(endpoint = "partie/etat")]
pub async fn reload_game(game_id: String) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::own_game(&api::RequestContext::current()?, game_id).await?)
}

/// Plays the player's move (long form) on the position after `ply` plies
/// and returns the game with the computer's answer, if it plays. `think_ms`
/// is the player's own count of thinking time, which the server clamps.
#[server(endpoint = "partie/jouer")]
pub async fn play_move(game_id: String, ply: usize, mv: String, think_ms: u64) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::play_move(&api::RequestContext::current()?, game_id, ply, mv, think_ms).await?)
}

/// The player resigns (in a two-player game, the side to move does).
#[server(endpoint = "partie/abandonner")]
pub async fn resign_game(game_id: String) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::resign(&api::RequestContext::current()?, game_id).await?)
}

/// Two players agree to a draw on the position after `ply` plies.
#[server(endpoint = "partie/nulle")]
pub async fn agree_draw(game_id: String, ply: usize) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::agree_draw(&api::RequestContext::current()?, game_id, ply).await?)
}

/// Test hook: starts a game for the current player from any position,
/// level and seed (and rules and side), so that browser tests can set up a
/// rafle or a quick win. Compiled out of release builds, and even in a
/// debug build answers only when the server runs with `DAMES_TEST_HOOKS=1`
/// (as the browser tests start it), so that `make run` cannot be used to
/// forge a score.
#[cfg(debug_assertions)]
#[server(endpoint = "test/partie")]
pub async fn start_test_game(
    fen: String,
    level: Level,
    seed: u64,
    kind: GameKind,
    rules: Option<String>,
    player: Option<Color>,
) -> Result<GameView, AppError> {
    use crate::server::api;
    if std::env::var("DAMES_TEST_HOOKS").as_deref() != Ok("1") {
        return Err(AppError::BadRequest("crochet de test désactivé".into()));
    }
    let rules = rules.unwrap_or_else(|| Rules::DAILY.to_string());
    let setup = GameSetup { rules, level, player: player.unwrap_or(Color::White) };
    Ok(api::start_test_game(&api::RequestContext::current()?, fen, setup, seed, kind).await?)
}

/// Who the page speaks to: one player against the computer (with their
/// side), or two players sharing the device.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seat {
    Against(Color),
    Shared,
}

impl Seat {
    pub fn of(view: &GameView) -> Seat {
        if view.kind.against_computer() {
            Seat::Against(view.setup.player)
        } else {
            Seat::Shared
        }
    }

    /// Whether the page takes a move from `turn`'s side.
    pub fn plays(self, turn: Color) -> bool {
        match self {
            Seat::Against(me) => me == turn,
            Seat::Shared => true,
        }
    }
}

/// "blancs" or "noirs".
pub const fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "blancs",
        Color::Black => "noirs",
    }
}

/// The outcome in words, as the seat sees it, with the rules' own counts.
pub fn outcome_text(outcome: Outcome, seat: Seat, rules: &Rules) -> String {
    match (outcome, seat) {
        (Outcome::Win { winner, reason }, Seat::Against(me)) if winner == me => match reason {
            WinReason::NoPieces => "Vous avez gagné : l'ordinateur n'a plus de pièce.".into(),
            WinReason::Blocked => "Vous avez gagné : l'ordinateur est bloqué.".into(),
            WinReason::Resignation => "Vous avez gagné : l'ordinateur abandonne.".into(),
        },
        (Outcome::Win { reason, .. }, Seat::Against(_)) => match reason {
            WinReason::NoPieces => "Perdu : vous n'avez plus de pièce.".into(),
            WinReason::Blocked => "Perdu : vous n'avez plus de coup possible.".into(),
            WinReason::Resignation => "Vous avez abandonné.".into(),
        },
        (Outcome::Win { winner, reason }, Seat::Shared) => {
            let (w, l) = (side_name(winner), side_name(!winner));
            match reason {
                WinReason::NoPieces => format!("Les {w} gagnent : les {l} n'ont plus de pièce."),
                WinReason::Blocked => format!("Les {w} gagnent : les {l} sont bloqués."),
                WinReason::Resignation => format!("Les {w} gagnent : les {l} abandonnent."),
            }
        }
        (Outcome::Draw(DrawReason::KingMoves), _) => {
            format!("Partie nulle : {} coups de chaque côté sans prise ni mouvement de pion.", rules.draw_moves)
        }
        (Outcome::Draw(DrawReason::MoveLimit), _) => {
            format!("Partie nulle : plus de {} coups de chaque côté.", rules.move_limit)
        }
        (Outcome::Draw(DrawReason::Repetition), _) => "Partie nulle : la même position est revenue trois fois.".into(),
        (Outcome::Draw(DrawReason::Agreement), _) => "Partie nulle d'un commun accord.".into(),
        (Outcome::Draw(DrawReason::EndgameLimit), _) => {
            format!(
                "Partie nulle : une dame seule contre trois dames au plus, sans gain en {ENDGAME_LIMIT_MOVES} coups de chaque côté."
            )
        }
    }
}

/// `mm:ss`.
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:02}:{:02}", s / 60, s % 60)
}

/// Loads the player's game and shows it; `setup` comes from the address.
#[component]
pub fn Play(kind: GameKind, setup: Option<GameSetup>) -> impl IntoView {
    let loaded = Resource::new(move || (kind, setup.clone()), |(kind, setup)| load_game(kind, setup));
    view! {
        <Suspense fallback=|| view! { <p class="loading">"Préparation du damier…"</p> }>
            {move || Suspend::new(async move {
                match loaded.await {
                    Ok(game) => {
                        let rules = game.setup.parsed_rules();
                        view! { <GameScreen initial=game/> <RulesSummary rules/> }.into_any()
                    }
                    Err(e) => {
                        crate::app::set_page_status(&e);
                        view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any()
                    }
                }
            })}
        </Suspense>
    }
}

/// What the status line says while the game goes on (the outcome once it
/// is over).
pub struct Situation {
    pub seat: Seat,
    pub turn: Color,
    pub pending: bool,
    pub must_capture: bool,
    pub started: bool,
}

pub fn status_text(outcome: Option<Outcome>, rules: &Rules, now: &Situation) -> String {
    if let Some(o) = outcome {
        return outcome_text(o, now.seat, rules);
    }
    let forced = if now.must_capture { " : la prise est obligatoire." } else { "." };
    match now.seat {
        Seat::Against(_) if now.pending => "L'ordinateur réfléchit…".into(),
        Seat::Against(me) if now.turn != me && !now.started => {
            "L'ordinateur a le trait : lancez la partie pour qu'il joue son premier coup.".into()
        }
        Seat::Against(me) if now.turn != me => format!("Au tour de l'ordinateur ({}).", side_name(!me)),
        Seat::Against(me) if now.must_capture => format!("À vous de jouer ({}){forced}", side_name(me)),
        Seat::Against(me) if !now.started => {
            format!("À vous de jouer ({}). Le chrono démarre à votre premier coup.", side_name(me))
        }
        Seat::Against(me) => format!("À vous de jouer ({}).", side_name(me)),
        Seat::Shared if now.pending => "Enregistrement du coup…".into(),
        Seat::Shared => format!("Aux {} de jouer{forced}", side_name(now.turn)),
    }
}

/// Where this browser remembers whether a two-player board turns to face
/// the side to move.
pub const TURN_BOARD_KEY: &str = "dames.tourner";

/// What a game screen derives from the game as the server sent it, each
/// worked out once per change (the game screen and the electronic board
/// share them).
#[derive(Clone, Copy)]
pub struct GameSignals {
    /// The game replayed with the engine.
    pub game: Memo<AnyGame>,
    /// The replay applies resignations and agreed draws too, so the game
    /// alone says how it ended.
    pub outcome: Memo<Option<Outcome>>,
    pub turn: Memo<Color>,
    pub position: Signal<AnyPosition>,
    pub started: Memo<bool>,
    /// The game waits for a move from this page.
    pub players_turn: Memo<bool>,
    /// The moves the board offers: none while a request is pending or
    /// when it is the computer's turn.
    pub options: Memo<MoveOptions>,
    /// A memo: every square reads it, and working it out replays the game.
    pub last_move: Memo<Option<ShownMove>>,
    pub texts: Memo<Vec<String>>,
    pub pdn: Memo<String>,
}

impl GameSignals {
    pub fn new(state: RwSignal<GameView>, pending: RwSignal<bool>) -> GameSignals {
        // What the page shows if the server ever sent a game it cannot
        // replay: the start of its rules.
        let rules = state.with_untracked(|v| v.setup.parsed_rules());
        let start = AnyPosition::initial(rules)
            .unwrap_or_else(|_| AnyPosition::initial(Rules::INTERNATIONAL).expect("the international start"));
        let fallback = AnyGame::new(start);
        let game = Memo::new(move |_| state.with(|v| v.replay().unwrap_or_else(|_| fallback.clone())));
        let outcome = Memo::new(move |_| game.with(|g| g.outcome()));
        let turn = Memo::new(move |_| game.with(|g| g.turn()));
        let players_turn = Memo::new(move |_| outcome.get().is_none() && state.with(|v| Seat::of(v).plays(turn.get())));
        GameSignals {
            game,
            outcome,
            turn,
            position: Signal::derive(move || game.with(|g| g.position())),
            started: Memo::new(move |_| state.with(|v| v.is_started())),
            players_turn,
            options: Memo::new(move |_| {
                if players_turn.get() && !pending.get() {
                    game.with(|g| MoveOptions::new(&g.position()))
                } else {
                    MoveOptions::none()
                }
            }),
            last_move: Memo::new(move |_| game.with(last_move)),
            texts: Memo::new(move |_| game.with(|g| g.notation())),
            pdn: Memo::new(move |_| state.with(|v| game.with(|g| pdn(g, v)))),
        }
    }
}

#[island]
pub fn GameScreen(initial: GameView) -> impl IntoView {
    let seat = Seat::of(&initial);
    let rules = initial.setup.parsed_rules();
    let state = RwSignal::new(initial);
    let pending = RwSignal::new(false);
    let GameSignals {
        outcome,
        turn,
        position,
        started,
        players_turn,
        options,
        last_move: shown_last,
        texts,
        pdn: pdn_text,
        ..
    } = GameSignals::new(state, pending);
    let error = RwSignal::new(None::<String>);
    let announce = RwSignal::new(String::new());
    let show_numbers = RwSignal::new(false);
    let turn_board = RwSignal::new(false);
    // Thinking time since the server's last answer, counted only while the
    // page is visible and the game has started.
    let think_ms = RwSignal::new(0u64);

    // A memo, so that the score panel (and its pseudonym form) is not
    // rebuilt when another part of the game state changes.
    let score = Memo::new(move |_| state.with(|v| v.score.clone()));
    let flipped = Signal::derive(move || match seat {
        Seat::Against(me) => me == Color::Black,
        Seat::Shared => turn_board.get() && turn.get() == Color::Black,
    });
    // The computer has the first move of a game not started yet: the
    // player starts it with a button (a page view stores nothing).
    let computer_opens = Memo::new(move |_| !started.get() && outcome.get().is_none() && !seat.plays(turn.get()));

    #[cfg(feature = "hydrate")]
    {
        let counting = Signal::derive(move || started.get() && players_turn.get() && !pending.get());
        run_thinking_clock(think_ms, counting);
        // After hydration, so that the first render matches the server's.
        Effect::new(move |_| {
            show_numbers.set(remembered(super::panel::NUMBERS_KEY));
            turn_board.set(remembered(TURN_BOARD_KEY));
        });
    }

    let send = move |text: String| {
        let view = state.get_untracked();
        // Show the player's move at once; the server's answer replaces it.
        state.update(|v| v.moves.push(text.clone()));
        pending.set(true);
        error.set(None);
        let think = think_ms.get_untracked();
        let ply = view.moves.len();
        spawn_local(async move {
            let answer = if view.is_started() {
                play_move(view.id.clone(), ply, text, think).await
            } else {
                let GameSetup { rules, level, player } = view.setup.clone();
                start_game(view.kind, rules, level, player, text).await
            };
            match answer {
                Ok(next) => {
                    think_ms.set(0);
                    announce.set(answer_announcement(&next, seat));
                    state.set(next);
                }
                Err(AppError::Conflict) => {
                    // Another tab or request moved first: show the game as
                    // the server has it.
                    error.set(Some(AppError::Conflict.to_string()));
                    match reload_game(view.id.clone()).await {
                        Ok(current) => state.set(current),
                        Err(_) => state.set(view),
                    }
                }
                Err(e) => {
                    state.set(view);
                    error.set(Some(e.to_string()));
                }
            }
            pending.set(false);
        });
    };

    let chosen_level = RwSignal::new(state.with_untracked(|v| v.level()));
    let restart = move || {
        let (kind, mut setup) = state.with_untracked(|v| (v.kind, v.setup.clone()));
        setup.level = chosen_level.get_untracked();
        pending.set(true);
        error.set(None);
        spawn_local(async move {
            match new_game(kind, setup.rules, setup.level, setup.player).await {
                Ok(next) => {
                    think_ms.set(0);
                    let text = match Seat::of(&next) {
                        Seat::Shared => "Nouvelle partie.".to_string(),
                        seat => format!("Nouvelle partie. {}", answer_announcement(&next, seat)),
                    };
                    announce.set(text);
                    state.set(next);
                }
                Err(e) => error.set(Some(e.to_string())),
            }
            pending.set(false);
        });
    };

    let resign = move |_| {
        let id = state.with_untracked(|v| v.id.clone());
        pending.set(true);
        spawn_local(async move {
            match resign_game(id).await {
                Ok(next) => {
                    let text = next
                        .replay()
                        .ok()
                        .and_then(|g| g.outcome())
                        .map(|o| outcome_text(o, seat, &rules))
                        .unwrap_or_default();
                    announce.set(text);
                    state.set(next);
                }
                Err(e) => error.set(Some(e.to_string())),
            }
            pending.set(false);
        });
    };

    let status = Signal::derive(move || {
        let now = Situation {
            seat,
            turn: turn.get(),
            pending: pending.get(),
            must_capture: options.with(|o| o.must_capture()),
            started: started.get(),
        };
        status_text(outcome.get(), &rules, &now)
    });
    let over = Signal::derive(move || outcome.get().is_some());
    let clock = Signal::derive(move || clock_text(state.with(|v| v.active_ms) + think_ms.get()));
    let count = move |color: Color| Signal::derive(move || position.with(|p| p.count(color)));
    let (white_label, black_label) = match seat {
        Seat::Against(Color::White) => ("Vos pièces", "Pièces de l'ordinateur"),
        Seat::Against(Color::Black) => ("Pièces de l'ordinateur", "Vos pièces"),
        Seat::Shared => ("Pièces blanches", "Pièces noires"),
    };
    let can_play = Signal::derive(move || players_turn.get() && !pending.get());
    // An unstarted game has nothing to give up.
    let can_resign = Signal::derive(move || can_play.get() && started.get());
    let kind = state.with_untracked(|v| v.kind);

    view! {
        <section class="play" aria-labelledby="titre-partie" data-partie=move || state.with(|v| v.id.clone())>
            <h1 id="titre-partie">{move || state.with(view_title)}</h1>
            <div class="play-grid">
                <div class="board-wrap">
                    <Board
                        position=position
                        options=options
                        last_move=shown_last
                        on_play=Callback::new(send)
                        show_numbers=show_numbers
                        flipped=flipped
                    />
                </div>
                <div class="panel">
                    <StatusLine text=status over=over/>
                    <p class="sr-only" aria-live="polite" data-testid="annonce">{move || announce.get()}</p>
                    {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                    <Show when=move || computer_opens.get()>
                        <button type="button" class="primary" on:click=move |_| restart() disabled=move || pending.get()>
                            "Lancer la partie"
                        </button>
                    </Show>
                    <Facts clock=clock white=count(Color::White) black=count(Color::Black) white_label black_label/>
                    <GameButtons
                        over=over
                        busy=pending
                        can_resign=can_resign
                        on_restart=Callback::new(move |_| restart())
                        on_resign=Callback::new(resign)
                        show_numbers=show_numbers
                    />
                    {(seat == Seat::Shared).then(|| view! {
                        <DrawOffer state=state turn=turn over=over busy=pending error=error announce=announce/>
                        <TurnBoardToggle turn_board=turn_board/>
                    })}
                    {(kind == GameKind::Free).then(|| view! { <LevelPicker chosen=chosen_level/> })}
                    {move || score.get().map(|score| view! { <WinPanel score=score state=state/> })}
                    <TypedMoveForm position=position can_play=can_play on_play=Callback::new(send) error=error/>
                    <MoveList texts=texts/>
                    <PdnExport text=pdn_text/>
                </div>
            </div>
        </section>
    }
}

/// What the live region says after the server's answer: the computer's
/// move, and how the game ended if it did.
pub fn answer_announcement(next: &GameView, seat: Seat) -> String {
    let Ok(game) = next.replay() else { return String::new() };
    let mut text = match (seat, last_move(&game)) {
        (Seat::Against(me), Some(m)) if m.by != me => format!("L'ordinateur joue {}.", m.text),
        (Seat::Shared, Some(m)) => format!("Les {} jouent {}.", side_name(m.by), m.text),
        _ => String::new(),
    };
    if let Some(o) = game.outcome() {
        text.push(' ');
        text.push_str(&outcome_text(o, seat, &game.rules()));
    }
    text.trim().to_string()
}

/// The rules of the game: the variant's name, and every rule when they are
/// custom. Drawn on the server, under the game: they do not change.
#[component]
fn RulesSummary(rules: Rules) -> impl IntoView {
    let custom = rules.preset().is_none() && rules != Rules::DAILY;
    view! {
        <details class="rules-summary" open=custom>
            <summary data-testid="regles">{variant_name(&rules)}</summary>
            <dl>
                {rule_lines(&rules).into_iter().map(|(name, value)| view! {
                    <div><dt>{name}</dt><dd>{value}</dd></div>
                }).collect_view()}
            </dl>
        </details>
    }
}

/// Draw by agreement between two players on one device: one side offers,
/// the other accepts or declines on the same screen.
#[component]
fn DrawOffer(
    state: RwSignal<GameView>,
    turn: Memo<Color>,
    over: Signal<bool>,
    busy: RwSignal<bool>,
    error: RwSignal<Option<String>>,
    announce: RwSignal<String>,
) -> impl IntoView {
    // The side that offered, in which game and on which ply.
    let offer = RwSignal::new(None::<(Color, (String, usize))>);
    let at = Memo::new(move |_| state.with(|v| (v.id.clone(), v.moves.len())));
    // A move played (or a new game) declines the offer.
    Effect::new(move |_| {
        let now = at.get();
        if offer.with_untracked(|o| o.as_ref().is_some_and(|(_, made)| *made != now)) {
            offer.set(None);
        }
    });
    let make_offer = move |_| {
        let side = turn.get_untracked();
        offer.set(Some((side, at.get_untracked())));
        announce.set(format!("Les {} proposent la nulle.", side_name(side)));
    };
    let accept = move |_| {
        let (id, ply) = state.with_untracked(|v| (v.id.clone(), v.moves.len()));
        busy.set(true);
        spawn_local(async move {
            match agree_draw(id, ply).await {
                Ok(next) => {
                    offer.set(None);
                    announce.set("Partie nulle d'un commun accord.".into());
                    state.set(next);
                }
                Err(e) => error.set(Some(e.to_string())),
            }
            busy.set(false);
        });
    };
    let decline = move |_| {
        if let Some((side, _)) = offer.get_untracked() {
            announce.set(format!("Les {} refusent la nulle.", side_name(!side)));
        }
        offer.set(None);
    };
    let can_offer = move || !over.get() && !busy.get() && state.with(|v| v.is_started()) && offer.get().is_none();
    view! {
        <div class="draw-offer">
            {move || match offer.get() {
                Some((side, _)) if !over.get() => view! {
                    <p role="status" data-testid="offre-nulle">
                        {format!("Les {} proposent la nulle. Les {} acceptent-ils ?", side_name(side), side_name(!side))}
                    </p>
                    <div class="buttons">
                        <button type="button" class="primary" on:click=accept disabled=move || busy.get()>"Accepter la nulle"</button>
                        <button type="button" on:click=decline>"Refuser"</button>
                    </div>
                }.into_any(),
                _ => view! {
                    <button type="button" on:click=make_offer disabled=move || !can_offer()>"Proposer la nulle"</button>
                }.into_any(),
            }}
        </div>
    }
}

/// The two-player setting: the board turns to face the side to move, or
/// stays with White at the bottom. Remembered by this browser.
#[component]
fn TurnBoardToggle(turn_board: RwSignal<bool>) -> impl IntoView {
    let toggle = move |_| {
        turn_board.update(|t| *t = !*t);
        #[cfg(feature = "hydrate")]
        if let Some(storage) = window().local_storage().ok().flatten() {
            let _ = storage.set_item(TURN_BOARD_KEY, if turn_board.get_untracked() { "1" } else { "0" });
        }
    };
    view! {
        <button type="button" on:click=toggle aria-pressed=move || turn_board.get().to_string()>
            "Tourner le damier vers le joueur au trait"
        </button>
    }
}

/// The level of the next free game.
#[component]
fn LevelPicker(chosen: RwSignal<Level>) -> impl IntoView {
    view! {
        <label class="level">
            "Niveau de la prochaine partie "
            <select on:change=move |ev| {
                if let Ok(level) = event_target_value(&ev).parse::<Level>() {
                    chosen.set(level);
                }
            }>
                {Level::ALL.into_iter().map(|l| view! {
                    <option value=l.name() selected=move || chosen.get() == l>{l.label()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}

/// The clock: adds the time that passes while `counting` holds and the
/// page is visible (a hidden tab does not count).
#[cfg(feature = "hydrate")]
fn run_thinking_clock(think_ms: RwSignal<u64>, counting: Signal<bool>) {
    let last_tick = StoredValue::new(now_ms());
    let handle = set_interval_with_handle(
        move || {
            let now = now_ms();
            let elapsed = now - last_tick.get_value();
            last_tick.set_value(now);
            if !document().hidden() && counting.get_untracked() {
                think_ms.update(|t| *t += elapsed.max(0.0) as u64);
            }
        },
        std::time::Duration::from_millis(250),
    );
    if let Ok(handle) = handle {
        on_cleanup(move || handle.clear());
    }
}

/// Whether this browser turned a setting on last time (`key` in local
/// storage).
#[cfg(feature = "hydrate")]
fn remembered(key: &str) -> bool {
    window().local_storage().ok().flatten().and_then(|s| s.get_item(key).ok().flatten()).as_deref() == Some("1")
}

#[cfg(feature = "hydrate")]
fn now_ms() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now(seat: Seat, turn: Color, must_capture: bool, started: bool) -> Situation {
        Situation { seat, turn, pending: false, must_capture, started }
    }

    #[test]
    fn clock_and_outcome_texts() {
        assert_eq!(clock_text(0), "00:00");
        assert_eq!(clock_text(754_999), "12:34");
        let me = Seat::Against(Color::White);
        assert!(outcome_text(Outcome::Draw(DrawReason::MoveLimit), me, &Rules::DAILY).contains("150"));
        assert!(outcome_text(Outcome::Draw(DrawReason::KingMoves), me, &Rules::ENGLISH).contains("40 coups"));
        let black_wins = Outcome::Win { winner: Color::Black, reason: WinReason::NoPieces };
        assert!(outcome_text(black_wins, Seat::Against(Color::Black), &Rules::RUSSIAN).starts_with("Vous avez gagné"));
        assert_eq!(
            outcome_text(black_wins, Seat::Shared, &Rules::RUSSIAN),
            "Les noirs gagnent : les blancs n'ont plus de pièce."
        );
        assert_eq!(
            outcome_text(Outcome::Draw(DrawReason::Agreement), Seat::Shared, &Rules::ENGLISH),
            "Partie nulle d'un commun accord."
        );
    }

    #[test]
    fn the_status_line_says_what_to_do() {
        let white = Seat::Against(Color::White);
        let rules = Rules::DAILY;
        assert!(status_text(None, &rules, &now(white, Color::White, false, false)).contains("premier coup"));
        assert_eq!(
            status_text(None, &rules, &now(white, Color::White, true, true)),
            "À vous de jouer (blancs) : la prise est obligatoire."
        );
        let thinking = Situation { pending: true, ..now(white, Color::White, false, true) };
        assert_eq!(status_text(None, &rules, &thinking), "L'ordinateur réfléchit…");
        assert_eq!(
            status_text(None, &rules, &now(white, Color::Black, false, true)),
            "Au tour de l'ordinateur (noirs)."
        );
        let black = Seat::Against(Color::Black);
        assert!(status_text(None, &rules, &now(black, Color::White, false, false)).contains("lancez la partie"));
        assert_eq!(status_text(None, &rules, &now(black, Color::Black, false, true)), "À vous de jouer (noirs).");
        assert_eq!(
            status_text(None, &rules, &now(Seat::Shared, Color::Black, true, true)),
            "Aux noirs de jouer : la prise est obligatoire."
        );
        let drawn = Some(Outcome::Draw(DrawReason::KingMoves));
        assert!(status_text(drawn, &rules, &now(white, Color::White, false, true)).contains("25 coups"));
    }
}
