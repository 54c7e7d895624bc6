//! A game against the computer or between two players on one device: the
//! server functions that load and extend it, and the game screen (the
//! board beside its panel, see [`super::panel`]).

use super::board::Board;
use super::call::{GameLink, GameRequest, LinkMessages};
use super::describe::{last_move, pdn, rule_lines, variant_name, view_title, ShownMove};
use super::input::MoveOptions;
use super::offline::{self, DeviceRequest};
use super::panel::{Facts, GameButtons, MoveList, PdnExport, StatusLine, TypedMoveForm, WinPanel};
use super::status::{answer_announcement, clock_text, outcome_text, side_name, status_text, Screen, Seat, Situation};
use crate::app::bundle::BundlePreload;
use crate::engine::any::{AnyGame, AnyPosition};
use crate::engine::bot::Level;
use crate::engine::{Color, Outcome, Rules};
use crate::protocol::{AppError, GameKind, GameSetup, GameView, Preferences};
use leptos::prelude::*;

/// The player's current game of this kind (the daily challenge of today,
/// or the latest game of the kind), or one not started yet: reading a page
/// stores nothing. `setup` (from the address) asks for a game set up so.
#[server(endpoint = "partie/charger", output = crate::protocol::codec::JsonText)]
pub async fn load_game(kind: GameKind, setup: Option<GameSetup>) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::current_game(&api::RequestContext::current()?, kind, setup).await?)
}

/// Starts the game with the player's first move.
#[server(endpoint = "partie/commencer", output = crate::protocol::codec::JsonText)]
pub async fn start_game(
    kind: GameKind,
    rules: Rules,
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
#[server(endpoint = "partie/nouvelle", output = crate::protocol::codec::JsonText)]
pub async fn new_game(kind: GameKind, rules: Rules, level: Level, player: Color) -> Result<GameView, AppError> {
    use crate::server::api;
    let setup = GameSetup { rules, level, player };
    Ok(api::new_game(&api::RequestContext::current()?, kind, setup).await?)
}

/// Plays the player's move (long form) on the position after `ply` plies
/// and returns the game with the computer's answer, if it plays. `think_ms`
/// is the player's own count of thinking time, which the server clamps.
#[server(endpoint = "partie/jouer", output = crate::protocol::codec::JsonText)]
pub async fn play_move(game_id: String, ply: usize, mv: String, think_ms: u64) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::play_move(&api::RequestContext::current()?, game_id, ply, mv, think_ms).await?)
}

/// The player resigns (in a two-player game, the side to move does).
#[server(endpoint = "partie/abandonner", output = crate::protocol::codec::JsonText)]
pub async fn resign_game(game_id: String) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::resign(&api::RequestContext::current()?, game_id).await?)
}

/// Two players agree to a draw on the position after `ply` plies.
#[server(endpoint = "partie/nulle", output = crate::protocol::codec::JsonText)]
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
#[server(endpoint = "test/partie", output = crate::protocol::codec::JsonText)]
pub async fn start_test_game(
    fen: String,
    level: Level,
    seed: u64,
    kind: GameKind,
    rules: Option<Rules>,
    player: Option<Color>,
) -> Result<GameView, AppError> {
    use crate::server::api;
    if std::env::var("DAMES_TEST_HOOKS").as_deref() != Ok("1") {
        return Err(AppError::BadRequest("crochet de test désactivé".into()));
    }
    let rules = rules.unwrap_or(Rules::DAILY);
    let setup = GameSetup { rules, level, player: player.unwrap_or(Color::White) };
    Ok(api::start_test_game(&api::RequestContext::current()?, fen, setup, seed, kind).await?)
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
                        let rules = game.setup.rules;
                        let preferences = crate::app::settings::current_preferences();
                        view! {
                            <BundlePreload size=rules.size/>
                            <GameScreen initial=game preferences/>
                            <RulesSummary rules/>
                        }
                        .into_any()
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
        let rules = state.with_untracked(|v| v.setup.rules);
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

/// The request that sends the player's move `text` on the game `before`:
/// the next move of a stored game, or the first, which stores the game; a
/// game kept on the device answers itself.
pub fn move_request(before: &GameView, text: String, think_ms: u64) -> GameRequest {
    if before.on_device {
        let request = DeviceRequest::Move { seen: before.moves.len(), text, think_ms };
        offline::game_request(before.id.clone(), request)
    } else if before.is_started() {
        Box::pin(play_move(before.id.clone(), before.moves.len(), text, think_ms))
    } else {
        let GameSetup { rules, level, player } = before.setup.clone();
        Box::pin(start_game(before.kind, rules, level, player, text))
    }
}

#[island]
pub fn GameScreen(initial: GameView, preferences: Preferences) -> impl IntoView {
    crate::app::count_live_island();
    let seat = Seat::of(&initial);
    let rules = initial.setup.rules;
    let kind = initial.kind;
    let link = GameLink::new(initial);
    let (state, pending) = (link.state, link.pending());
    let signals = GameSignals::new(state, pending);
    let GameSignals { outcome, turn, position, started, players_turn, options, .. } = signals;
    let preferences = RwSignal::new(preferences);
    let turn_board = RwSignal::new(false);
    // Thinking time since the server's last answer, counted only while the
    // page is visible and the game has started.
    let think_ms = RwSignal::new(0u64);

    let flipped = Signal::derive(move || match seat {
        Seat::Against(me) => me == Color::Black,
        Seat::Shared => turn_board.get() && turn.get() == Color::Black,
    });

    #[cfg(feature = "hydrate")]
    {
        let counting = Signal::derive(move || started.get() && players_turn.get() && !pending.get());
        run_thinking_clock(think_ms, counting);
        // After hydration, so that the first render matches the server's.
        Effect::new(move |_| turn_board.set(remembered(TURN_BOARD_KEY)));
    }

    let chosen_level = RwSignal::new(state.with_untracked(|v| v.level()));
    let actions = GameActions { link, seat, rules, think_ms, chosen_level };
    let send = Callback::new(move |text| actions.play(text));
    let restart = Callback::new(move |_| actions.restart());
    let resign = Callback::new(move |_| actions.resign());

    let status = Signal::derive(move || {
        let now = Situation {
            screen: Screen::Game,
            seat,
            turn: turn.get(),
            pending: pending.get(),
            must_capture: options.with(|o| o.must_capture()),
            started: started.get(),
        };
        status_text(outcome.get(), &rules, &now)
    });
    let over = Signal::derive(move || outcome.get().is_some());
    let can_play = Signal::derive(move || players_turn.get() && !pending.get());
    // An unstarted game has nothing to give up.
    let can_resign = Signal::derive(move || can_play.get() && started.get());

    let board = view! {
        <Board
            position=position
            options=options
            last_move=signals.last_move
            on_play=send
            preferences=preferences
            flipped=flipped
        />
    };
    view! {
        <GameFrame state signals preferences board=board.into_any()>
                    <StatusLine text=status over=over/>
                    <LinkMessages link/>
                    <ComputerOpens signals seat on_start=restart busy=pending/>
                    <GameFacts signals seat clock=Signal::derive(move || clock_text(state.with(|v| v.active_ms) + think_ms.get()))/>
                    <GameButtons
                        over=over
                        game_id=Signal::derive(move || state.with(|v| if v.on_device { String::new() } else { v.id.clone() }))
                        busy=pending
                        can_resign=can_resign
                        on_restart=restart
                        on_resign=resign
                        preferences=preferences
                    />
                    {(seat == Seat::Shared).then(|| view! {
                        <DrawOffer link turn=turn over=over/>
                        <TurnBoardToggle turn_board=turn_board/>
                    })}
                    {(kind == GameKind::Free).then(|| view! { <LevelPicker chosen=chosen_level/> })}
                    <GameScore state/>
                    <TypedMoveForm position=position can_play=can_play on_play=send call=link.call/>
        </GameFrame>
    }
}

/// Every game screen's frame: the title, the board, and the panel beside
/// it (under it on narrow screens) ending with the moves and the PDN.
#[component]
pub fn GameFrame(
    state: RwSignal<GameView>,
    signals: GameSignals,
    /// For the sound at the end of the game.
    #[prop(into)]
    preferences: Signal<Preferences>,
    /// The electronic board's screen (styled as the device).
    #[prop(optional)]
    electronic: bool,
    board: AnyView,
    /// The panel's own parts, above the moves.
    children: Children,
) -> impl IntoView {
    sound_the_end(signals.outcome, preferences);
    view! {
        <section class="play" class:electronic=electronic aria-labelledby="titre-partie" data-partie=move || state.with(|v| v.id.clone())>
            <h1 id="titre-partie">{move || state.with(view_title)}</h1>
            <div class="play-grid">
                <div class="board-wrap">{board}</div>
                <div class="panel">
                    {children()}
                    <MoveList texts=signals.texts/>
                    <PdnExport text=signals.pdn/>
                </div>
            </div>
        </section>
    }
}

/// The end of a game played on this page, sounded when the player wants
/// sounds (not a game shown already over).
fn sound_the_end(outcome: Memo<Option<Outcome>>, preferences: Signal<Preferences>) {
    #[cfg(feature = "hydrate")]
    Effect::new(move |previous: Option<bool>| {
        let over = outcome.with(|o| o.is_some());
        if previous == Some(false) && over && preferences.with_untracked(|p| p.sound) {
            super::sound::play(super::sound::Cue::End);
        }
        over
    });
    let _ = (outcome, preferences);
}

/// What the game screen's board and buttons do, each through the game's
/// link.
#[derive(Clone, Copy)]
struct GameActions {
    link: GameLink,
    seat: Seat,
    rules: Rules,
    /// The player's thinking time since the server's last answer.
    think_ms: RwSignal<u64>,
    /// The level of the next free game.
    chosen_level: RwSignal<Level>,
}

impl GameActions {
    /// The player's move, with the thinking time it took.
    fn play(self, text: String) {
        let (think_ms, seat) = (self.think_ms, self.seat);
        let think = think_ms.get_untracked();
        self.link.play(
            text,
            |before, text| move_request(before, text, think),
            move |next| {
                think_ms.set(0);
                answer_announcement(next, seat)
            },
        );
    }

    /// "Rejouer", "Nouvelle partie", "Lancer la partie": a new game stored
    /// now, at the level chosen.
    fn restart(self) {
        let think_ms = self.think_ms;
        let (kind, mut setup, on_device) = self.link.state.with_untracked(|v| (v.kind, v.setup.clone(), v.on_device));
        setup.level = self.chosen_level.get_untracked();
        let request: GameRequest = if on_device {
            offline::game_request(String::new(), DeviceRequest::New { kind, setup, fen: None })
        } else {
            Box::pin(new_game(kind, setup.rules, setup.level, setup.player))
        };
        self.link.update(request, move |next| {
            think_ms.set(0);
            match Seat::of(next) {
                Seat::Shared => "Nouvelle partie.".to_string(),
                seat => format!("Nouvelle partie. {}", answer_announcement(next, seat)),
            }
        });
    }

    fn resign(self) {
        let (seat, rules) = (self.seat, self.rules);
        let (id, on_device) = self.link.state.with_untracked(|v| (v.id.clone(), v.on_device));
        let request =
            if on_device { offline::game_request(id, DeviceRequest::Resign) } else { Box::pin(resign_game(id)) };
        self.link.update(request, move |next| {
            next.replay().ok().and_then(|g| g.outcome()).map(|o| outcome_text(o, seat, &rules)).unwrap_or_default()
        });
    }
}

/// The computer has the first move of a game not started yet: the player
/// starts it with a button (a page view stores nothing).
#[component]
fn ComputerOpens(signals: GameSignals, seat: Seat, on_start: Callback<()>, busy: RwSignal<bool>) -> impl IntoView {
    let GameSignals { started, outcome, turn, .. } = signals;
    let computer_opens = Memo::new(move |_| !started.get() && outcome.get().is_none() && !seat.plays(turn.get()));
    view! {
        <Show when=move || computer_opens.get()>
            <button type="button" class="primary" on:click=move |_| on_start.run(()) disabled=move || busy.get()>
                "Lancer la partie"
            </button>
        </Show>
    }
}

/// The clock and each side's pieces, named as the seat sees them.
#[component]
fn GameFacts(signals: GameSignals, seat: Seat, clock: Signal<String>) -> impl IntoView {
    let position = signals.position;
    let count = move |color: Color| Signal::derive(move || position.with(|p| p.count(color)));
    let (white_label, black_label) = match seat {
        Seat::Against(Color::White) => ("Vos pièces", "Pièces de l'ordinateur"),
        Seat::Against(Color::Black) => ("Pièces de l'ordinateur", "Vos pièces"),
        Seat::Shared => ("Pièces blanches", "Pièces noires"),
    };
    view! { <Facts clock=clock white=count(Color::White) black=count(Color::Black) white_label black_label/> }
}

/// After a win, the score panel. A memo, so that the panel (and its
/// pseudonym form) is not rebuilt when another part of the game changes.
#[component]
fn GameScore(state: RwSignal<GameView>) -> impl IntoView {
    let score = Memo::new(move |_| state.with(|v| v.score.clone()));
    move || score.get().map(|score| view! { <WinPanel score=score state=state/> })
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
fn DrawOffer(link: GameLink, turn: Memo<Color>, over: Signal<bool>) -> impl IntoView {
    let GameLink { state, announce, .. } = link;
    let busy = link.pending();
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
        let (id, ply) = at.get_untracked();
        let request = if state.with_untracked(|v| v.on_device) {
            offline::game_request(id, DeviceRequest::AgreeDraw { seen: ply })
        } else {
            Box::pin(agree_draw(id, ply))
        };
        link.update(request, move |_| {
            offer.set(None);
            "Partie nulle d'un commun accord.".into()
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
