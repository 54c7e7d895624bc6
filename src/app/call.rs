//! The one way a screen calls the server: the request runs in the
//! background while the screen shows it pending, a refusal shows as its
//! French message, and on a conflict (another tab or request changed the
//! game first) the game comes back as the server has it. Every screen sends
//! its requests through [`ServerCall`] or, for a game, [`GameLink`]; none
//! writes the pending flag, the error or the recovery itself.

use crate::protocol::{AppError, GameView};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::future::Future;
use std::pin::Pin;

/// A request that answers with the game, still to come (boxed, so that a
/// screen can choose between two server functions).
pub type GameRequest = Pin<Box<dyn Future<Output = Result<GameView, AppError>>>>;

/// The player's game as stored, to catch up after a conflict.
#[server(endpoint = "partie/etat", output = crate::protocol::codec::JsonText)]
pub async fn reload_game(game_id: String) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::own_game(&api::RequestContext::current()?, game_id).await?)
}

/// A screen's line to the server: whether a request is out, and the
/// message of the last refusal.
#[derive(Clone, Copy)]
pub struct ServerCall {
    pub pending: RwSignal<bool>,
    pub error: RwSignal<Option<String>>,
}

impl Default for ServerCall {
    fn default() -> ServerCall {
        ServerCall::new()
    }
}

impl ServerCall {
    pub fn new() -> ServerCall {
        ServerCall { pending: RwSignal::new(false), error: RwSignal::new(None) }
    }

    /// Sends `request`; `on_answer` gets the answer, a refusal is shown.
    pub fn send<T: 'static>(
        self,
        request: impl Future<Output = Result<T, AppError>> + 'static,
        on_answer: impl FnOnce(T) + 'static,
    ) {
        self.send_then(request, on_answer, |e| async move { e });
    }

    /// Sends `request`; `on_answer` gets the answer, and a refusal goes
    /// through `recover` (which may fetch what changed) before it is shown.
    fn send_then<T: 'static, R: Future<Output = AppError> + 'static>(
        self,
        request: impl Future<Output = Result<T, AppError>> + 'static,
        on_answer: impl FnOnce(T) + 'static,
        recover: impl FnOnce(AppError) -> R + 'static,
    ) {
        self.pending.set(true);
        self.error.set(None);
        spawn_local(async move {
            match request.await {
                Ok(answer) => on_answer(answer),
                Err(refusal) => {
                    let shown = recover(refusal).await;
                    self.error.set(Some(shown.to_string()));
                }
            }
            self.pending.set(false);
        });
    }

    /// Shows a refusal found on the page itself (a typed move that is not
    /// legal), as a server's would be.
    pub fn refuse(self, refusal: AppError) {
        self.error.set(Some(refusal.to_string()));
    }
}

/// A game screen's link to the server: the game as the server last sent
/// it, the call in flight, and what the live region says after an answer.
#[derive(Clone, Copy)]
pub struct GameLink {
    pub state: RwSignal<GameView>,
    pub call: ServerCall,
    /// Read out by screen readers (`aria-live`) after each answer.
    pub announce: RwSignal<String>,
}

impl GameLink {
    pub fn new(initial: GameView) -> GameLink {
        GameLink { state: RwSignal::new(initial), call: ServerCall::new(), announce: RwSignal::new(String::new()) }
    }

    pub fn pending(self) -> RwSignal<bool> {
        self.call.pending
    }

    pub fn error(self) -> RwSignal<Option<String>> {
        self.call.error
    }

    /// Sends a request that answers with the game, and shows that game
    /// with `said(&game)` announced.
    pub fn update(
        self,
        request: impl Future<Output = Result<GameView, AppError>> + 'static,
        said: impl FnOnce(&GameView) -> String + 'static,
    ) {
        self.send_game(request, said, None);
    }

    /// The player's move `text`: shown at once, sent by `request` (given
    /// the game before the move); the server's answer replaces it, and a
    /// refusal takes it back.
    pub fn play<F: Future<Output = Result<GameView, AppError>> + 'static>(
        self,
        text: String,
        request: impl FnOnce(&GameView, String) -> F,
        said: impl FnOnce(&GameView) -> String + 'static,
    ) {
        let before = self.state.get_untracked();
        self.state.update(|v| v.moves.push(text.clone()));
        let sent = request(&before, text);
        self.send_game(sent, said, Some(before));
    }

    /// Sends a request with any other answer (a hint): `on_answer` gets
    /// it; a conflict still brings the game up to date.
    pub fn ask<T: 'static>(
        self,
        request: impl Future<Output = Result<T, AppError>> + 'static,
        on_answer: impl FnOnce(T) + 'static,
    ) {
        self.call.send_then(request, on_answer, move |refusal| self.recover(refusal, None));
    }

    fn send_game(
        self,
        request: impl Future<Output = Result<GameView, AppError>> + 'static,
        said: impl FnOnce(&GameView) -> String + 'static,
        before: Option<GameView>,
    ) {
        let on_answer = move |next: GameView| {
            self.announce.set(said(&next));
            self.state.set(next);
        };
        // The answer (the computer's reply) is shown once the player's own
        // move has landed on the board; the call stays pending until then,
        // so that no move is entered on a position about to be replaced.
        let request = async move {
            let answer = request.await;
            super::motion::landed().await;
            answer
        };
        self.call.send_then(request, on_answer, move |refusal| self.recover(refusal, before));
    }

    /// After a refusal: the game as it was before the request, and on a
    /// conflict the game as the server has it now.
    async fn recover(self, refusal: AppError, before: Option<GameView>) -> AppError {
        if let Some(before) = before {
            self.state.set(before);
        }
        let (id, on_device) = self.state.with_untracked(|v| (v.id.clone(), v.on_device));
        if refusal == AppError::Conflict && !id.is_empty() && !on_device {
            if let Ok(current) = reload_game(id).await {
                self.state.set(current);
            }
        }
        refusal
    }
}

/// What a game screen says after each answer: the live region that screen
/// readers read out, and the last refusal.
#[component]
pub fn LinkMessages(link: GameLink) -> impl IntoView {
    let (announce, error) = (link.announce, link.error());
    view! {
        <p class="sr-only" aria-live="polite" data-testid="annonce">{move || announce.get()}</p>
        {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
    }
}

/// Waits `ms` milliseconds in the browser (a poll's pause); on the server,
/// where nothing polls, at once.
pub async fn pause_ms(ms: u32) {
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window() {
        let timer = js_sys::Promise::new(&mut |resolve, _| {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(timer).await;
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = ms;
}
