//! The electronic board ("Dames électroniques"): the tabletop draughts
//! computer in the browser — a ladder of eight levels, take-backs, hints,
//! switching sides, a position editor and the one-king endgame rule — with
//! the server functions behind its buttons.

use super::board::{focus_square, piece_name, square_at_point, step_cursor, Board};
use super::describe::{view_title, ShownMove};
use super::input::SquareNumber;
use super::panel::{MoveList, PdnExport};
use super::play::{
    answer_announcement, new_game, outcome_text, play_move, reload_game, side_name, start_game, GameSignals, Seat,
};
use crate::engine::any::{AnyGame, AnyPosition, Layout, MoveChoice};
use crate::engine::bot::{Level, Step};
use crate::engine::{Color, DrawReason, Outcome, Piece, Role, Rules};
use crate::protocol::game::ELECTRONIC_RULES;
use crate::protocol::{AppError, GameKind, GameSetup, GameView};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// A server function's answer with the game, still to come.
type GameRequest = std::pin::Pin<Box<dyn std::future::Future<Output = Result<GameView, AppError>>>>;

/// A step of the ladder from a request.
#[cfg(feature = "ssr")]
fn step_level(step: u8) -> Result<Level, AppError> {
    Step::new(step).map(Level::Ladder).ok_or_else(|| AppError::BadRequest("niveau de 1 à 8".into()))
}

/// "Changer de camp": the computer takes over the side to move.
#[server(endpoint = "electronique/changer")]
pub async fn switch_sides(game_id: String, ply: usize) -> Result<GameView, AppError> {
    use crate::server::api;
    let ctx = api::RequestContext::current()?;
    Ok(api::electronic_action(&ctx, game_id, ply, api::ElectronicAction::SwitchSides).await?)
}

/// The computer plays at step `step` of the ladder from now on.
#[server(endpoint = "electronique/niveau")]
pub async fn set_level(game_id: String, ply: usize, step: u8) -> Result<GameView, AppError> {
    use crate::server::api;
    let level = step_level(step)?;
    let ctx = api::RequestContext::current()?;
    Ok(api::electronic_action(&ctx, game_id, ply, api::ElectronicAction::SetLevel(level)).await?)
}

/// "Continuer la partie" past the endgame rule's draw.
#[server(endpoint = "electronique/continuer")]
pub async fn play_on(game_id: String, ply: usize) -> Result<GameView, AppError> {
    use crate::server::api;
    let ctx = api::RequestContext::current()?;
    Ok(api::electronic_action(&ctx, game_id, ply, api::ElectronicAction::PlayOn).await?)
}

/// "Reprendre": back to `to_ply` plies.
#[server(endpoint = "electronique/reprendre")]
pub async fn take_back(game_id: String, ply: usize, to_ply: usize) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::take_back(&api::RequestContext::current()?, game_id, ply, to_ply).await?)
}

/// "Conseil": the player's move in `game_id` the computer would choose at
/// the game's level (at step `step` from the start for a game not stored
/// yet, whose id is empty).
#[server(endpoint = "electronique/conseil")]
pub async fn hint(game_id: String, ply: usize, step: u8) -> Result<MoveChoice, AppError> {
    use crate::server::api;
    let level = step_level(step)?;
    Ok(api::hint(&api::RequestContext::current()?, game_id, ply, level).await?)
}

/// A new game from a set-up position (FEN), the player taking the side to
/// move.
#[server(endpoint = "electronique/position")]
pub async fn start_position(fen: String, step: u8, player: Color) -> Result<GameView, AppError> {
    use crate::server::api;
    let setup = GameSetup::new(ELECTRONIC_RULES, step_level(step)?, player);
    Ok(api::start_from_position(&api::RequestContext::current()?, fen, setup).await?)
}

/// The ladder step of a game's level (1 to 8).
fn step_of(view: &GameView) -> u8 {
    match view.setup.level {
        Level::Ladder(step) => step.get(),
        _ => 1,
    }
}

/// The plies to go back to for "Reprendre": the latest earlier position
/// with the player to move.
fn take_back_target(game: &AnyGame, player: Color) -> Option<usize> {
    let positions = game.positions();
    (0..positions.len() - 1).rev().find(|&ply| positions[ply].turn() == player)
}

#[island]
pub fn ElectronicScreen(initial: GameView) -> impl IntoView {
    let state = RwSignal::new(initial);
    let pending = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let announce = RwSignal::new(String::new());
    let hinted = RwSignal::new(None::<ShownMove>);
    let editing = RwSignal::new(false);
    let GameSignals {
        game,
        outcome,
        turn,
        position,
        started,
        players_turn,
        options,
        last_move: shown_last,
        texts,
        pdn: pdn_text,
    } = GameSignals::new(state, pending);
    let player = Memo::new(move |_| state.with(|v| v.setup.player));
    let step = Memo::new(move |_| state.with(step_of));
    let back_to = Memo::new(move |_| game.with(|g| take_back_target(g, player.get())));

    // Runs a request that answers with the game, then shows it.
    let update = move |request: GameRequest, said: fn(&GameView) -> String| {
        pending.set(true);
        error.set(None);
        hinted.set(None);
        spawn_local(async move {
            match request.await {
                Ok(next) => {
                    announce.set(said(&next));
                    state.set(next);
                }
                Err(e) => catch_up(e, state, error).await,
            }
            pending.set(false);
        });
    };

    let send = move |text: String| {
        let view = state.get_untracked();
        state.update(|v| v.moves.push(text.clone()));
        let ply = view.moves.len();
        let request: GameRequest = if view.is_started() {
            Box::pin(play_move(view.id.clone(), ply, text, 0))
        } else {
            let GameSetup { rules, level, player } = view.setup.clone();
            Box::pin(start_game(GameKind::Electronic, rules, level, player, text))
        };
        pending.set(true);
        error.set(None);
        hinted.set(None);
        spawn_local(async move {
            match request.await {
                Ok(next) => {
                    announce.set(computer_said(&next));
                    state.set(next);
                }
                Err(e) => {
                    state.set(view);
                    catch_up(e, state, error).await;
                }
            }
            pending.set(false);
        });
    };

    let on_take_back = move |_| {
        let (id, ply) = state.with_untracked(|v| (v.id.clone(), v.moves.len()));
        if let Some(to) = back_to.get_untracked() {
            update(Box::pin(take_back(id, ply, to)), |_| "Coup repris.".into());
        }
    };
    let on_hint = move |_| {
        let (id, ply) = state.with_untracked(|v| (v.id.clone(), v.moves.len()));
        pending.set(true);
        error.set(None);
        spawn_local(async move {
            match hint(id, ply, step.get_untracked()).await {
                Ok(choice) => {
                    announce.set(format!("Conseil : {}.", choice.text));
                    hinted.set(Some(ShownMove::new(player.get_untracked(), choice)));
                }
                Err(e) => error.set(Some(e.to_string())),
            }
            pending.set(false);
        });
    };
    let on_switch = move |_| {
        let view = state.get_untracked();
        if view.is_started() {
            update(Box::pin(switch_sides(view.id, view.moves.len())), computer_said);
        } else {
            // Not stored yet: a game with the player on the other side, the
            // computer opening.
            let GameSetup { rules, level, .. } = view.setup;
            update(Box::pin(new_game(GameKind::Electronic, rules, level, !turn.get_untracked())), computer_said);
        }
    };
    let on_level = move |ev: leptos::ev::Event| {
        let Ok(n) = event_target_value(&ev).parse::<u8>() else { return };
        let Some(level) = Step::new(n).map(Level::Ladder) else { return };
        let view = state.get_untracked();
        if view.is_started() {
            update(Box::pin(set_level(view.id, view.moves.len(), n)), |v| format!("{}.", v.level().label()));
        } else {
            state.update(|v| v.setup.level = level);
        }
    };
    let on_new = move |_| {
        editing.set(false);
        let level = state.with_untracked(|v| v.setup.level);
        update(Box::pin(new_game(GameKind::Electronic, ELECTRONIC_RULES.to_string(), level, Color::White)), |_| {
            "Nouvelle partie.".into()
        });
    };
    let on_play_on = move |_| {
        let (id, ply) = state.with_untracked(|v| (v.id.clone(), v.moves.len()));
        update(Box::pin(play_on(id, ply)), |_| "La partie continue.".into());
    };
    let on_position = Callback::new(move |(fen, side): (String, Color)| {
        let n = step.get_untracked();
        pending.set(true);
        error.set(None);
        hinted.set(None);
        spawn_local(async move {
            match start_position(fen, n, side).await {
                Ok(next) => {
                    editing.set(false);
                    announce.set("Position mise en place.".into());
                    state.set(next);
                }
                Err(e) => error.set(Some(e.to_string())),
            }
            pending.set(false);
        });
    });

    let status = move || match outcome.get() {
        Some(o) => outcome_text(o, Seat::Against(player.get()), &ELECTRONIC_RULES),
        None if pending.get() && turn.get() != player.get() => "L'ordinateur réfléchit…".into(),
        None if pending.get() => "Un instant…".into(),
        None if players_turn.get() => format!("À vous de jouer ({}).", side_name(player.get())),
        None => format!("Au tour de l'ordinateur ({}).", side_name(turn.get())),
    };
    let lcd_move =
        move || shown_last.get().filter(|m| m.by != player.get()).map_or_else(|| "--".to_string(), |m| m.text);
    // Move numbers count from White's move, as on the board's display; a
    // position set up with Black to move starts with Black's half.
    let lcd_count = move || {
        game.with(|g| {
            let black_first = usize::from(g.start().turn() == Color::Black);
            format!("Coup {}", (g.ply_count() + black_first) / 2 + 1)
        })
    };
    let drawn_by_rule = move || outcome.get() == Some(Outcome::Draw(DrawReason::EndgameLimit));
    let idle = move || !pending.get();

    view! {
        <section class="play electronic" aria-labelledby="titre-partie" data-partie=move || state.with(|v| v.id.clone())>
            <h1 id="titre-partie">{move || state.with(view_title)}</h1>
            <div class="play-grid">
                <div class="board-wrap">
                    <Show
                        when=move || editing.get()
                        fallback=move || view! {
                            <Board
                                position=position
                                options=options
                                last_move=shown_last
                                on_play=Callback::new(send)
                                show_numbers=Signal::derive(|| false)
                                flipped=Signal::derive(move || player.get() == Color::Black)
                                hint=hinted
                            />
                        }
                    >
                        <PositionEditor
                            start=position.get_untracked()
                            on_done=on_position
                            on_cancel=Callback::new(move |_| editing.set(false))
                            busy=pending
                        />
                    </Show>
                </div>
                <div class="panel">
                    <div class="lcd" aria-label="Écran de l'appareil">
                        <p class="lcd-move" data-testid="lcd-coup">{lcd_move}</p>
                        <p class="lcd-line">
                            <span data-testid="lcd-numero">{lcd_count}</span>
                            <span>{move || format!("Trait : {}", side_name(turn.get()))}</span>
                            <span data-testid="lcd-niveau">{move || format!("Niveau {}", step.get())}</span>
                        </p>
                        <p class="lcd-line">
                            <span class="lcd-thinking" class:on=move || pending.get()>"Réflexion"</span>
                            <span data-testid="lcd-conseil">{move || hinted.get().map(|h| format!("Conseil {}", h.text))}</span>
                        </p>
                    </div>
                    <p class="status" class:over=move || outcome.get().is_some() data-testid="statut">{status}</p>
                    <p class="sr-only" aria-live="polite" data-testid="annonce">{move || announce.get()}</p>
                    {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                    <Show when=drawn_by_rule>
                        <button type="button" class="primary" on:click=on_play_on disabled=move || !idle()>"Continuer la partie"</button>
                    </Show>
                    <div class="buttons">
                        <button type="button" on:click=on_take_back
                            disabled=move || !idle() || !started.get() || back_to.get().is_none() || editing.get()>"Reprendre"</button>
                        <button type="button" on:click=on_hint
                            disabled=move || !idle() || !players_turn.get() || editing.get()>"Conseil"</button>
                        <button type="button" on:click=on_switch
                            disabled=move || !idle() || outcome.get().is_some() || editing.get()>"Changer de camp"</button>
                        <button type="button" on:click=on_new disabled=move || !idle()>"Nouvelle partie"</button>
                        <button type="button" on:click=move |_| editing.update(|e| *e = !*e)
                            aria-pressed=move || editing.get().to_string() disabled=move || !idle()>"Mettre en place"</button>
                    </div>
                    <label class="level">
                        "Niveau "
                        <select on:change=on_level disabled=move || !idle()>
                            {Step::ALL.into_iter().map(|s| view! {
                                <option value=s.get().to_string() selected=move || step.get() == s.get()>{Level::Ladder(s).label()}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <p class="hint">"1 : débutant … 8 : le plus fort. Les parties des dames électroniques ne sont jamais classées."</p>
                    <MoveList texts=texts/>
                    <PdnExport text=pdn_text/>
                </div>
            </div>
        </section>
    }
}

/// What the live region says after the computer moved.
fn computer_said(next: &GameView) -> String {
    answer_announcement(next, Seat::Against(next.setup.player))
}

/// After a refused request: the error, and on a conflict (another tab
/// changed the game) the game as the server has it.
async fn catch_up(e: AppError, state: RwSignal<GameView>, error: RwSignal<Option<String>>) {
    if e == AppError::Conflict {
        let id = state.with_untracked(|v| v.id.clone());
        if let Ok(current) = reload_game(id).await {
            state.set(current);
        }
    }
    error.set(Some(e.to_string()));
}

/// What a square cycles through when tapped in the editor.
const CYCLE: [Option<Piece>; 5] = [
    None,
    Some(Piece { color: Color::White, role: Role::Man }),
    Some(Piece { color: Color::White, role: Role::King }),
    Some(Piece { color: Color::Black, role: Role::Man }),
    Some(Piece { color: Color::Black, role: Role::King }),
];

/// The editor's board: always the 10×10 one.
const EDITOR_LAYOUT: Layout = Layout { size: 10 };

/// The position of the editor's squares (square `i + 1` at `i`) as FEN.
pub fn editor_fen(squares: &[Option<Piece>], turn: Color) -> String {
    let pieces = squares.iter().enumerate().filter_map(|(i, piece)| piece.map(|p| (i as u8 + 1, p)));
    EDITOR_LAYOUT.fen_of(turn, pieces)
}

/// The editor's squares for a position.
fn editor_squares(pos: &AnyPosition) -> Vec<Option<Piece>> {
    (1..=pos.layout().squares()).map(|n| pos.piece_at(n)).collect()
}

/// Sets up a position: tap a square to cycle empty → white man → white
/// king → black man → black king, or pick a piece in the tray and tap or
/// drag it onto squares; the keyboard moves with the arrows and cycles with
/// Enter or Space.
#[component]
fn PositionEditor(
    start: AnyPosition,
    on_done: Callback<(String, Color)>,
    on_cancel: Callback<()>,
    busy: RwSignal<bool>,
) -> impl IntoView {
    let layout = EDITOR_LAYOUT;
    let squares = RwSignal::new(editor_squares(&start));
    let turn = RwSignal::new(start.turn());
    let brush = RwSignal::new(None::<Option<Piece>>);
    let cursor = RwSignal::new(32u8);
    let dragging = RwSignal::new(None::<Option<Piece>>);
    let set = move |n: SquareNumber| {
        squares.update(|s| {
            let at = &mut s[n as usize - 1];
            *at = match brush.get_untracked() {
                Some(code) => code,
                None => CYCLE[(CYCLE.iter().position(|c| c == at).unwrap_or(0) + 1) % CYCLE.len()],
            };
        })
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        match key.as_str() {
            "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" => {
                ev.prevent_default();
                let next = step_cursor(layout, cursor.get_untracked(), &key, false);
                cursor.set(next);
                focus_square(".editor-board ", next);
            }
            "Enter" | " " => {
                ev.prevent_default();
                set(cursor.get_untracked());
            }
            _ => {}
        }
    };
    let on_pointerup = move |ev: leptos::ev::PointerEvent| {
        if let (Some(code), Some(n)) =
            (dragging.get_untracked(), square_at_point(".editor-board ", ev.client_x(), ev.client_y()))
        {
            squares.update(|s| s[n as usize - 1] = code);
        }
        dragging.set(None);
    };
    let rows = (0..10u8)
        .map(|r| {
            let cells = (0..10u8)
                .map(|c| match layout.square_at(r, c) {
                    None => view! { <div class="sq light" role="presentation"></div> }.into_any(),
                    Some(n) => {
                        let piece = move || squares.with(|s| s[n as usize - 1]);
                        view! {
                            <div
                                class="sq dark"
                                role="gridcell"
                                data-square=n
                                tabindex=move || if cursor.get() == n { "0" } else { "-1" }
                                aria-label=move || format!("{n}, {}", piece_name(piece()))
                                on:click=move |_| {
                                    cursor.set(n);
                                    set(n);
                                }
                                on:focus=move |_| cursor.set(n)
                            >
                                {move || piece().map(|p| view! { <span class=format!("piece {}", p.code()) data-piece=p.code() aria-hidden="true"></span> })}
                            </div>
                        }
                        .into_any()
                    }
                })
                .collect_view();
            view! { <div class="row" role="row">{cells}</div> }
        })
        .collect_view();
    let tray = CYCLE
        .into_iter()
        .map(|code| {
            let label = match code {
                None => "Gomme",
                Some(piece) => piece_name(Some(piece)),
            };
            view! {
                <button
                    type="button"
                    class="tray-item"
                    aria-pressed=move || (brush.get() == Some(code)).to_string()
                    on:click=move |_| brush.update(|b| *b = if *b == Some(code) { None } else { Some(code) })
                    on:pointerdown=move |_| dragging.set(Some(code))
                    data-tray=code.map_or("vide", Piece::code)
                >
                    {code.map(|p| view! { <span class=format!("piece {}", p.code()) aria-hidden="true"></span> })}
                    <span class="tray-label">{label}</span>
                </button>
            }
        })
        .collect_view();
    view! {
        <div class="editor" on:pointerup=on_pointerup>
            <div
                class="board editor-board"
                role="grid"
                aria-label="Mise en place : flèches pour se déplacer, Entrée pour changer la pièce de la case."
                on:keydown=on_keydown
                data-fen=move || squares.with(|s| editor_fen(s, turn.get()))
            >
                {rows}
            </div>
            <div class="tray" role="group" aria-label="Pièces à poser">{tray}</div>
            <div class="buttons">
                <button type="button" on:click=move |_| squares.set(vec![None; 50])>"Vider le damier"</button>
                <button type="button" on:click=move |_| {
                    squares.set(editor_squares(&AnyPosition::initial(Rules::INTERNATIONAL).expect("the start")));
                    turn.set(Color::White);
                }>"Position de départ"</button>
            </div>
            <div class="field" role="radiogroup" aria-label="Camp au trait">
                <label class="choice"><input type="radio" name="trait-edition" prop:checked=move || turn.get() == Color::White
                    on:change=move |_| turn.set(Color::White)/>"Les blancs ont le trait"</label>
                <label class="choice"><input type="radio" name="trait-edition" prop:checked=move || turn.get() == Color::Black
                    on:change=move |_| turn.set(Color::Black)/>"Les noirs ont le trait"</label>
            </div>
            <p class="hint">"Vous jouerez le camp qui a le trait ; « Changer de camp » fait commencer l'ordinateur."</p>
            <div class="buttons">
                <button type="button" class="primary" disabled=move || busy.get()
                    on:click=move |_| on_done.run((squares.with(|s| editor_fen(s, turn.get())), turn.get()))>"Jouer cette position"</button>
                <button type="button" on:click=move |_| on_cancel.run(())>"Annuler"</button>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editor_writes_fen_the_engine_reads() {
        let start = AnyPosition::initial(Rules::INTERNATIONAL).unwrap();
        let squares = editor_squares(&start);
        assert_eq!(editor_fen(&squares, Color::White), "W:W31-50:B1-20", "as the engine writes it");
        let mut squares = vec![None; 50];
        squares[46] = CYCLE[2];
        squares[3] = CYCLE[4];
        squares[29] = CYCLE[1];
        let fen = editor_fen(&squares, Color::Black);
        assert_eq!(fen, "B:W30,K47:BK4");
        assert_eq!(AnyPosition::from_fen(&fen, Rules::INTERNATIONAL).unwrap().to_fen(), "B:W30,K47:BK4");
    }

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
