//! The electronic board ("Dames électroniques"): the tabletop draughts
//! computer in the browser — a ladder of eight levels, take-backs, hints,
//! switching sides, a position editor and the one-king endgame rule — with
//! the server functions behind its buttons.

mod display;
mod editor;

pub use editor::{editor_fen, PositionEditor};

use super::board::Board;
use super::call::{GameLink, GameRequest, LinkMessages};
use super::describe::ShownMove;
use super::offline::{self, DeviceRequest};
use super::panel::StatusLine;
use super::play::{move_request, new_game, GameFrame, GameSignals};
use super::status::{answer_announcement, status_text, Screen, Seat, Situation};
use crate::engine::any::{AnyGame, MoveChoice};
use crate::engine::bot::{Level, Step};
use crate::engine::{Color, DrawReason, Outcome, Rules};
use crate::protocol::{AppError, GameKind, GameSetup, GameView, Preferences};
use display::{DeviceButtons, DeviceDisplay, LadderPicker};
use leptos::prelude::*;

/// A step of the ladder from a request.
#[cfg(feature = "ssr")]
fn step_level(step: u8) -> Result<Level, AppError> {
    Step::new(step).map(Level::Ladder).ok_or_else(|| AppError::BadRequest("niveau de 1 à 8".into()))
}

/// "Changer de camp": the computer takes over the side to move.
#[server(endpoint = "electronique/changer", output = crate::protocol::codec::JsonText)]
pub async fn switch_sides(game_id: String, ply: usize) -> Result<GameView, AppError> {
    use crate::server::api;
    let ctx = api::RequestContext::current()?;
    Ok(api::electronic_action(&ctx, game_id, ply, api::ElectronicAction::SwitchSides).await?)
}

/// The computer plays at step `step` of the ladder from now on.
#[server(endpoint = "electronique/niveau", output = crate::protocol::codec::JsonText)]
pub async fn set_level(game_id: String, ply: usize, step: u8) -> Result<GameView, AppError> {
    use crate::server::api;
    let level = step_level(step)?;
    let ctx = api::RequestContext::current()?;
    Ok(api::electronic_action(&ctx, game_id, ply, api::ElectronicAction::SetLevel(level)).await?)
}

/// "Continuer la partie" past the endgame rule's draw.
#[server(endpoint = "electronique/continuer", output = crate::protocol::codec::JsonText)]
pub async fn play_on(game_id: String, ply: usize) -> Result<GameView, AppError> {
    use crate::server::api;
    let ctx = api::RequestContext::current()?;
    Ok(api::electronic_action(&ctx, game_id, ply, api::ElectronicAction::PlayOn).await?)
}

/// "Reprendre": back to `to_ply` plies.
#[server(endpoint = "electronique/reprendre", output = crate::protocol::codec::JsonText)]
pub async fn take_back(game_id: String, ply: usize, to_ply: usize) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::take_back(&api::RequestContext::current()?, game_id, ply, to_ply).await?)
}

/// "Conseil": the player's move in `game_id` the computer would choose at
/// the game's level (at step `step` from the start for a game not stored
/// yet, whose id is empty).
#[server(endpoint = "electronique/conseil", output = crate::protocol::codec::JsonText)]
pub async fn hint(game_id: String, ply: usize, step: u8) -> Result<MoveChoice, AppError> {
    use crate::server::api;
    let level = step_level(step)?;
    Ok(api::hint(&api::RequestContext::current()?, game_id, ply, level).await?)
}

/// A new game from a set-up position (FEN), the player taking the side to
/// move.
#[server(endpoint = "electronique/position", output = crate::protocol::codec::JsonText)]
pub async fn start_position(fen: String, step: u8, player: Color) -> Result<GameView, AppError> {
    use crate::server::api;
    let setup = GameSetup::new(Rules::ELECTRONIC, step_level(step)?, player);
    Ok(api::start_from_position(&api::RequestContext::current()?, fen, setup).await?)
}

/// The ladder step of a game's level (1 to 8).
fn step_of(view: &GameView) -> u8 {
    view.setup.level.step().map_or(1, Step::get)
}

/// The plies to go back to for "Reprendre": the latest earlier position
/// with the player to move.
fn take_back_target(game: &AnyGame, player: Color) -> Option<usize> {
    let positions = game.positions();
    (0..positions.len() - 1).rev().find(|&ply| positions[ply].turn() == player)
}

#[island(lazy)]
pub fn ElectronicScreen(initial: GameView, preferences: Preferences) -> impl IntoView {
    crate::app::count_live_island();
    let link = GameLink::new(initial);
    let (state, pending) = (link.state, link.pending());
    let hinted = RwSignal::new(None::<ShownMove>);
    let editing = RwSignal::new(false);
    let signals = GameSignals::new(state, pending);
    let GameSignals { game, outcome, turn, position, options, started, .. } = signals;
    let player = Memo::new(move |_| state.with(|v| v.setup.player));
    let step = Memo::new(move |_| state.with(step_of));
    let back_to = Memo::new(move |_| game.with(|g| take_back_target(g, player.get())));
    let actions = DeviceActions { link, hinted, editing, step, back_to };

    let status = move || {
        let now = Situation {
            screen: Screen::Electronic,
            seat: Seat::Against(player.get()),
            turn: turn.get(),
            pending: pending.get(),
            must_capture: false,
            started: started.get(),
        };
        state.with(|v| status_text(outcome.get(), &v.setup.rules, &now))
    };
    let drawn_by_rule = move || outcome.get() == Some(Outcome::Draw(DrawReason::EndgameLimit));
    let board = move || {
        view! {
            <Board
                position=position
                options=options
                last_move=signals.last_move
                on_play=Callback::new(move |text| actions.play(text))
                preferences=Signal::derive(move || preferences)
                flipped=Signal::derive(move || player.get() == Color::Black)
                hint=hinted
            />
        }
    };

    let board_or_editor = view! {
        <Show when=move || editing.get() fallback=board>
            <PositionEditor
                start=position.get_untracked()
                hint="Vous jouerez le camp qui a le trait ; « Changer de camp » fait commencer l'ordinateur."
                done_label="Jouer cette position"
                on_done=Callback::new(move |(fen, side)| actions.set_up(fen, side))
                on_cancel=Callback::new(move |_| editing.set(false))
                busy=pending
            />
        </Show>
    };
    let over = Signal::derive(move || outcome.get().is_some());

    view! {
        <GameFrame state signals preferences=Signal::derive(move || preferences) electronic=true board=board_or_editor.into_any()>
                    <DeviceDisplay signals player step hinted busy=pending/>
                    <StatusLine text=Signal::derive(status) over=over/>
                    <LinkMessages link/>
                    <Show when=drawn_by_rule>
                        <button type="button" class="primary" on:click=move |_| actions.play_on() disabled=move || pending.get()>
                            "Continuer la partie"
                        </button>
                    </Show>
                    <DeviceButtons actions signals/>
                    <LadderPicker step busy=pending on_pick=Callback::new(move |n| actions.set_level(n))/>
                    <p class="hint">"1 : débutant … 8 : le plus fort. Les parties des dames électroniques ne sont jamais classées."</p>
        </GameFrame>
    }
}

/// What the electronic board's buttons do, each through the game's link
/// (a hint shown is dropped by anything that changes the game).
#[derive(Clone, Copy)]
pub(crate) struct DeviceActions {
    link: GameLink,
    /// The hint on show.
    hinted: RwSignal<Option<ShownMove>>,
    /// The position editor is open.
    editing: RwSignal<bool>,
    step: Memo<u8>,
    /// The ply "Reprendre" goes back to.
    back_to: Memo<Option<usize>>,
}

impl DeviceActions {
    fn at(self) -> (String, usize) {
        self.link.state.with_untracked(|v| (v.id.clone(), v.moves.len()))
    }

    /// The game is kept on the device: it answers itself.
    fn on_device(self) -> bool {
        self.link.state.with_untracked(|v| v.on_device)
    }

    /// `request` on the device's game, or `online` on the server's.
    fn either(
        self,
        request: impl FnOnce(usize) -> DeviceRequest,
        online: impl std::future::Future<Output = Result<GameView, AppError>> + 'static,
    ) -> GameRequest {
        let (id, ply) = self.at();
        if self.on_device() {
            offline::game_request(id, request(ply))
        } else {
            Box::pin(online)
        }
    }

    fn update(
        self,
        request: impl std::future::Future<Output = Result<GameView, AppError>> + 'static,
        said: impl FnOnce(&GameView) -> String + 'static,
    ) {
        self.hinted.set(None);
        self.link.update(request, said);
    }

    fn play(self, text: String) {
        self.hinted.set(None);
        self.link.play(text, |before, text| move_request(before, text, 0), computer_said);
    }

    fn take_back(self) {
        let (id, ply) = self.at();
        if let Some(to) = self.back_to.get_untracked() {
            let request = self.either(|seen| DeviceRequest::TakeBack { seen, to }, take_back(id, ply, to));
            self.update(request, |_| "Coup repris.".into());
        }
    }

    fn hint(self) {
        let (id, ply) = self.at();
        let (hinted, announce) = (self.hinted, self.link.announce);
        let player = self.link.state.with_untracked(|v| v.setup.player);
        let request: std::pin::Pin<Box<dyn std::future::Future<Output = Result<MoveChoice, AppError>>>> =
            if self.on_device() {
                Box::pin(offline::hint(id, ply))
            } else {
                Box::pin(hint(id, ply, self.step.get_untracked()))
            };
        self.link.ask(request, move |choice: MoveChoice| {
            announce.set(format!("Conseil : {}.", choice.text));
            hinted.set(Some(ShownMove::new(player, choice)));
        });
    }

    fn switch_sides(self, turn: Color) {
        let view = self.link.state.get_untracked();
        if view.is_started() {
            let request =
                self.either(|seen| DeviceRequest::SwitchSides { seen }, switch_sides(view.id, view.moves.len()));
            self.update(request, computer_said);
        } else {
            // Not stored yet: a game with the player on the other side, the
            // computer opening.
            let GameSetup { rules, level, .. } = view.setup;
            self.update(new_game(GameKind::Electronic, rules, level, !turn), computer_said);
        }
    }

    fn set_level(self, n: u8) {
        let Some(level) = Step::new(n).map(Level::Ladder) else { return };
        let view = self.link.state.get_untracked();
        if view.is_started() {
            let request =
                self.either(|seen| DeviceRequest::SetLevel { seen, level }, set_level(view.id, view.moves.len(), n));
            self.update(request, |v| format!("{}.", v.level().label()));
        } else {
            self.link.state.update(|v| v.setup.level = level);
        }
    }

    fn new_game(self) {
        self.editing.set(false);
        let level = self.link.state.with_untracked(|v| v.setup.level);
        let request: GameRequest = if self.on_device() {
            let setup = GameSetup::new(Rules::ELECTRONIC, level, Color::White);
            offline::game_request(String::new(), DeviceRequest::New { kind: GameKind::Electronic, setup, fen: None })
        } else {
            Box::pin(new_game(GameKind::Electronic, Rules::ELECTRONIC, level, Color::White))
        };
        self.update(request, |_| "Nouvelle partie.".into());
    }

    fn play_on(self) {
        let (id, ply) = self.at();
        let request = self.either(|seen| DeviceRequest::PlayOn { seen }, play_on(id, ply));
        self.update(request, |_| "La partie continue.".into());
    }

    fn set_up(self, fen: String, side: Color) {
        let (editing, step) = (self.editing, self.step.get_untracked());
        let request: GameRequest = match Step::new(step).map(Level::Ladder) {
            Some(level) if self.on_device() => {
                let setup = GameSetup::new(Rules::ELECTRONIC, level, side);
                let new = DeviceRequest::New { kind: GameKind::Electronic, setup, fen: Some(fen) };
                offline::game_request(String::new(), new)
            }
            _ => Box::pin(start_position(fen, step, side)),
        };
        self.update(request, move |_| {
            editing.set(false);
            "Position mise en place.".into()
        });
    }
}

/// What the live region says after the computer moved.
fn computer_said(next: &GameView) -> String {
    answer_announcement(next, Seat::Against(next.setup.player))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::any::AnyPosition;

    #[test]
    fn take_back_goes_to_the_players_last_turn() {
        let mut game = AnyGame::new(AnyPosition::initial(Rules::INTERNATIONAL).unwrap());
        assert_eq!(take_back_target(&game, Color::White), None);
        for mv in ["32-28", "19-23", "28x19{23}"] {
            game.play_long(mv).unwrap();
        }
        assert_eq!(take_back_target(&game, Color::White), Some(2), "the player's capture goes");
        game.play_long("14x23{19}").unwrap();
        assert_eq!(take_back_target(&game, Color::White), Some(2), "the reply and the player's move");
        assert_eq!(take_back_target(&game, Color::Black), Some(3));
    }
}
