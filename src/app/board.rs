//! The board: 32, 50 or 72 dark squares in an ARIA grid, turned to face
//! the side at the bottom, driven by touch, mouse (click or drag) or the
//! keyboard alone, through the input state machine of [`super::input`],
//! and drawn as the player's preferences say (numbers, destinations, a
//! move to confirm before it is sent, sounds).

use super::describe::ShownMove;
use super::input::{InputState, MoveOptions, SquareNumber, TapResult, Targets};
use crate::engine::any::{AnyPosition, Layout, MoveChoice};
use crate::engine::{Color, Piece, Role};
use crate::protocol::{Preferences, RafleInput};
use leptos::prelude::*;

/// What the squares and pieces are called for screen readers.
pub(crate) fn piece_name(piece: Option<Piece>) -> &'static str {
    match piece {
        None => "vide",
        Some(Piece { color: Color::White, role: Role::Man }) => "pion blanc",
        Some(Piece { color: Color::White, role: Role::King }) => "dame blanche",
        Some(Piece { color: Color::Black, role: Role::Man }) => "pion noir",
        Some(Piece { color: Color::Black, role: Role::King }) => "dame noire",
    }
}

/// The square the arrow keys lead to from `at`, staying on dark squares.
/// On a board turned round (`flipped`), up on the screen is down the rows.
pub fn step_cursor(layout: Layout, at: SquareNumber, key: &str, flipped: bool) -> SquareNumber {
    let Some((row, col)) = layout.row_column(at) else { return at };
    let (row, col) = (row as i8, col as i8);
    let candidates: &[(i8, i8)] = match key {
        "ArrowLeft" => &[(0, -2)],
        "ArrowRight" => &[(0, 2)],
        "ArrowUp" => &[(-1, -1), (-1, 1)],
        "ArrowDown" => &[(1, 1), (1, -1)],
        _ => &[],
    };
    let sign = if flipped { -1 } else { 1 };
    let size = layout.size as i8;
    candidates
        .iter()
        .filter_map(|(dr, dc)| {
            let (r, c) = (row + sign * dr, col + sign * dc);
            ((0..size).contains(&r) && (0..size).contains(&c)).then(|| layout.square_at(r as u8, c as u8)).flatten()
        })
        .next()
        .unwrap_or(at)
}

/// What every square reads to show its cues, worked out once per board.
#[derive(Clone, Copy)]
struct Cues {
    position: Signal<AnyPosition>,
    input: RwSignal<InputState>,
    /// The square that holds the keyboard focus (the one tab stop).
    cursor: RwSignal<SquareNumber>,
    targets: Memo<Targets>,
    /// Pieces jumped so far in a rafle being entered: shown as ghosts.
    jumped: Memo<Vec<SquareNumber>>,
    movable: Memo<Vec<SquareNumber>>,
    must_capture: Memo<bool>,
    last_move: Signal<Option<ShownMove>>,
    /// A move suggested to the player (the electronic board's hint).
    hint: Signal<Option<ShownMove>>,
    /// A move entered, waiting for the player to confirm it.
    proposed: RwSignal<Option<MoveChoice>>,
    /// Legal destinations are marked (and read out).
    destinations: Signal<bool>,
}

#[component]
pub fn Board(
    /// The position shown.
    #[prop(into)]
    position: Signal<AnyPosition>,
    /// The player's legal moves now; empty when it is not their turn.
    #[prop(into)]
    options: Signal<MoveOptions>,
    /// The last move, kept highlighted.
    #[prop(into)]
    last_move: Signal<Option<ShownMove>>,
    /// Called with each move the player enters, in long form.
    on_play: Callback<String>,
    /// Black at the bottom: the board turned round.
    #[prop(into, optional)]
    flipped: Signal<bool>,
    /// A suggested move to highlight.
    #[prop(into, optional)]
    hint: Signal<Option<ShownMove>>,
    /// The player's settings: numbers, destinations, confirmation, rafle
    /// input, sound.
    #[prop(into)]
    preferences: Signal<Preferences>,
    /// A board to look at only (the replay): its label says so.
    #[prop(optional)]
    read_only: bool,
) -> impl IntoView {
    let board_label = move || {
        let bottom = if flipped.get() { "les noirs en bas" } else { "les blancs en bas" };
        let keys = if read_only {
            "Flèches pour parcourir les cases."
        } else {
            "Flèches pour se déplacer, Entrée pour choisir, Échap pour annuler."
        };
        format!("Damier, {bottom}. {keys}")
    };
    let input = RwSignal::new(InputState::Idle);
    let proposed = RwSignal::new(None::<MoveChoice>);
    let drag_from = RwSignal::new(None::<SquareNumber>);
    let layout = Memo::new(move |_| position.with(|p| p.layout()));
    let rafle_input = Memo::new(move |_| preferences.with(|p| p.rafle_input));

    // A new position (the computer answered, or a new game) drops any
    // selection made on the old one, and any move waiting for confirmation.
    Effect::new(move |_| {
        position.track();
        options.track();
        input.set(InputState::Idle);
        proposed.set(None);
    });

    super::motion::animate_moves(position, last_move, Signal::derive(move || preferences.with(|p| p.sound)));

    let cues = Cues {
        position,
        input,
        // The keyboard starts on the second square of the front row of
        // the side at the bottom, from its left (32 on the 10×10 board).
        cursor: RwSignal::new(position.with_untracked(|p| {
            let rules = p.rules();
            if flipped.get_untracked() {
                rules.front_row(Color::Black).end() - 1
            } else {
                rules.front_row(Color::White).start() + 1
            }
        })),
        targets: Memo::new(move |_| input.with(|i| options.with(|o| i.targets(o, rafle_input.get())))),
        jumped: Memo::new(move |_| input.with(|i| position.with(|p| i.jumped(p)))),
        movable: Memo::new(move |_| options.with(|o| o.movable())),
        must_capture: Memo::new(move |_| options.with(|o| o.must_capture())),
        last_move,
        hint,
        proposed,
        destinations: Signal::derive(move || preferences.with(|p| p.destinations)),
    };

    // A tap while a move waits for confirmation drops that move first.
    let tap = Callback::new(move |square: SquareNumber| {
        proposed.set(None);
        let mode = rafle_input.get_untracked();
        let result = options.with_untracked(|o| input.try_update(|i| i.tap(o, square, mode)));
        if let Some(TapResult::Play(mv)) = result {
            if preferences.with_untracked(|p| p.confirm_moves) {
                proposed.set(Some(mv));
            } else {
                on_play.run(mv.long);
            }
        }
    });

    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        match key.as_str() {
            "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" => {
                ev.prevent_default();
                let next =
                    step_cursor(layout.get_untracked(), cues.cursor.get_untracked(), &key, flipped.get_untracked());
                cues.cursor.set(next);
                focus_square("", next);
            }
            "Enter" | " " => {
                ev.prevent_default();
                tap.run(cues.cursor.get_untracked());
            }
            "Escape" => {
                proposed.set(None);
                input.update(|i| {
                    i.cancel();
                });
            }
            _ => {}
        }
    };

    // A drag: the press selected the piece (its click may not fire), the
    // release names the destination.
    let on_pointerup = move |ev: leptos::ev::PointerEvent| {
        let start = drag_from.get_untracked();
        drag_from.set(None);
        if let (Some(start), Some(end)) = (start, square_at_point("", ev.client_x(), ev.client_y())) {
            if start != end {
                if input.with_untracked(|i| i.selected()) != Some(start) {
                    tap.run(start);
                }
                tap.run(end);
            }
        }
    };

    // Taps made before this code arrived, answered meanwhile by the page's
    // small script from what the server wrote (`first_taps_attribute`):
    // played again here, in order, once the board is live.
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let early = early_taps::take();
        if !early.is_empty() {
            early_taps::clear_marks();
            for square in early {
                tap.run(square);
            }
        }
    });
    let first_taps = first_taps_attribute(options, rafle_input, read_only);

    let confirm = Callback::new(move |_| {
        if let Some(mv) = proposed.get_untracked() {
            proposed.set(None);
            on_play.run(mv.long);
            focus_square("", cues.cursor.get_untracked());
        }
    });
    let cancel = Callback::new(move |_| {
        proposed.set(None);
        focus_square("", cues.cursor.get_untracked());
    });

    view! {
        <div
            class="board"
            class:numbers=move || preferences.with(|p| p.numbers)
            class:no-destinations=move || !cues.destinations.get()
            style=move || format!("--size: {}", layout.get().size)
            role="grid"
            aria-label=board_label
            data-fen=move || position.with(|p| p.to_fen())
            data-rules=move || position.with(|p| p.rules().to_string())
            data-first-taps=first_taps
            on:keydown=on_keydown
            on:pointerup=on_pointerup
        >
            <BoardRows layout flipped cues on_tap=tap drag_from/>
        </div>
        <ConfirmMove proposed on_confirm=confirm on_cancel=cancel/>
    }
}

/// What a first tap on each movable piece marks, written by the server
/// alone for `app/first_taps.js` (the browser's own code, once here,
/// does not need it): see [`super::input::first_taps`].
#[allow(unused_variables)]
fn first_taps_attribute(options: Signal<MoveOptions>, mode: Memo<RafleInput>, read_only: bool) -> Option<String> {
    #[cfg(feature = "ssr")]
    if !read_only {
        return options.with_untracked(|o| Some(super::input::first_taps(o, mode.get_untracked())));
    }
    None
}

/// The taps that `app/first_taps.js` kept before the board was live.
#[cfg(feature = "hydrate")]
mod early_taps {
    use super::SquareNumber;
    use wasm_bindgen::JsValue;

    const KEPT: &str = "__damesEarlyTaps";

    /// The squares tapped so far, in order; from now on the script leaves
    /// taps to the board (it sees the list gone).
    pub fn take() -> Vec<SquareNumber> {
        let global = js_sys::global();
        let kept = js_sys::Reflect::get(&global, &KEPT.into()).unwrap_or(JsValue::UNDEFINED);
        let _ = js_sys::Reflect::set(&global, &KEPT.into(), &JsValue::NULL);
        if !js_sys::Array::is_array(&kept) {
            return Vec::new();
        }
        js_sys::Array::from(&kept).iter().filter_map(|v| v.as_f64()).map(|n| n as SquareNumber).collect()
    }

    /// The script's marks, which the board's own replace.
    pub fn clear_marks() {
        let Ok(marked) =
            leptos::prelude::document().query_selector_all(".board .sq.selected, .board .sq.final, .board .sq.step")
        else {
            return;
        };
        for i in 0..marked.length() {
            if let Some(element) =
                marked.item(i).and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
            {
                let _ = element.class_list().remove_3("selected", "final", "step");
            }
        }
    }
}

/// The move entered when confirmation is on: "Jouer 32-28" or "Annuler",
/// over the bottom of the board. The focus goes to "Jouer", so a screen
/// reader names the move and Entrée plays it; Échap cancels it.
#[component]
fn ConfirmMove(
    proposed: RwSignal<Option<MoveChoice>>,
    on_confirm: Callback<()>,
    on_cancel: Callback<()>,
) -> impl IntoView {
    let play_button = NodeRef::<leptos::html::Button>::new();
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        if let (Some(_), Some(button)) = (proposed.get(), play_button.get()) {
            let _ = button.focus();
        }
    });
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            ev.prevent_default();
            on_cancel.run(());
        }
    };
    move || {
        proposed.get().map(|mv| {
            view! {
                <div class="confirm-move" role="group" aria-label="Confirmer le coup" on:keydown=on_keydown>
                    <button type="button" class="primary" node_ref=play_button on:click=move |_| on_confirm.run(())>
                        {format!("Jouer {}", mv.text)}
                    </button>
                    <button type="button" on:click=move |_| on_cancel.run(())>"Annuler"</button>
                </div>
            }
        })
    }
}

/// The rows of squares, turned round when Black is at the bottom; rebuilt
/// only when the board's size or orientation changes.
#[component]
fn BoardRows(
    layout: Memo<Layout>,
    flipped: Signal<bool>,
    cues: Cues,
    on_tap: Callback<SquareNumber>,
    drag_from: RwSignal<Option<SquareNumber>>,
) -> impl IntoView {
    move || {
        let (layout, flipped) = (layout.get(), flipped.get());
        let size = layout.size;
        let turn = move |i: u8| if flipped { size - 1 - i } else { i };
        (0..size)
            .map(|r| {
                let cells = (0..size)
                    .map(|c| match layout.square_at(turn(r), turn(c)) {
                        None => view! { <LightSquare/> }.into_any(),
                        Some(square) => view! { <DarkSquare square cues on_tap drag_from/> }.into_any(),
                    })
                    .collect_view();
                view! { <div class="row" role="row">{cells}</div> }
            })
            .collect_view()
    }
}

/// A light square: never played on, hidden from screen readers.
#[component]
pub fn LightSquare() -> impl IntoView {
    view! { <div class="sq light" role="presentation"></div> }
}

/// A piece on a square (`data-piece` is its code, which tests and tools
/// read); `arrived` marks the end of the last move.
#[component]
pub fn PieceMark(piece: Piece, #[prop(into, optional)] arrived: Signal<bool>) -> impl IntoView {
    view! {
        <span
            class=format!("piece {}", piece.code())
            class:arrived=move || arrived.get()
            data-piece=piece.code()
            aria-hidden="true"
        ></span>
    }
}

/// One dark square: its piece, its cues as classes, and its name for
/// screen readers.
#[component]
fn DarkSquare(
    square: SquareNumber,
    cues: Cues,
    on_tap: Callback<SquareNumber>,
    drag_from: RwSignal<Option<SquareNumber>>,
) -> impl IntoView {
    let Cues {
        position,
        input,
        cursor,
        targets,
        jumped,
        movable,
        must_capture,
        last_move,
        hint,
        proposed,
        destinations,
    } = cues;
    // A memo: a square whose piece did not change keeps its element (and
    // the motion drawn on it) when the rest of the board changes.
    let piece = Memo::new(move |_| position.with(|p| p.piece_at(square)));
    let selected = move || input.with(|i| i.selected() == Some(square));
    let label = move || {
        let mut text = format!("{}, {}", square, piece_name(piece.get()));
        if selected() {
            text.push_str(", sélectionné");
        } else if proposed.with(|p| p.as_ref().is_some_and(|m| m.to == square)) {
            text.push_str(", coup à confirmer");
        } else if destinations.get() && targets.with(|t| t.finals.contains(&square) || t.steps.contains(&square)) {
            text.push_str(", destination possible");
        } else if movable.with(|m| m.contains(&square)) {
            text.push_str(", peut jouer");
        }
        text
    };
    let on_last_path = move || last_move.with(|l| l.as_ref().is_some_and(|m| m.path.contains(&square)));
    let on_last_from = move || last_move.with(|l| l.as_ref().is_some_and(|m| m.from == square));
    let on_last_capture = move || last_move.with(|l| l.as_ref().is_some_and(|m| m.captured.contains(&square)));
    view! {
        <div
            class="sq dark"
            role="gridcell"
            data-square=square
            tabindex=move || if cursor.get() == square { "0" } else { "-1" }
            aria-label=label
            aria-selected=move || if selected() { "true" } else { "false" }
            class:movable=move || movable.with(|m| m.contains(&square))
            class:must-capture=move || must_capture.get() && movable.with(|m| m.contains(&square))
            class:selected=selected
            class:final=move || targets.with(|t| t.finals.contains(&square))
            class:step=move || targets.with(|t| t.steps.contains(&square))
            class:ghost=move || jumped.with(|j| j.contains(&square))
            class:last-from=on_last_from
            class:last-path=on_last_path
            class:last-capture=on_last_capture
            class:proposed=move || proposed.with(|p| p.as_ref().is_some_and(|m| m.from == square || m.to == square))
            class:hint=move || hint.with(|h| h.as_ref().is_some_and(|m| m.from == square || m.path.contains(&square)))
            on:click=move |_| {
                cursor.set(square);
                on_tap.run(square);
            }
            on:focus=move |_| cursor.set(square)
            on:pointerdown=move |_| drag_from.set(Some(square))
        >
            <span class="num" aria-hidden="true">{square}</span>
            {move || piece.get().map(|p| view! { <PieceMark piece=p arrived=Signal::derive(on_last_path)/> })}
        </div>
    }
}

/// Moves the keyboard focus to a square (in the browser); `scope` is a
/// CSS selector prefix for the board it is on (`".editor-board "`), empty
/// for the only board of the page.
#[allow(unused_variables)]
pub(crate) fn focus_square(scope: &str, square: SquareNumber) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        if let Some(el) = document()
            .query_selector(&format!("{scope}[data-square='{square}']"))
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    }
}

/// The square under a pointer (in the browser), on the board `scope`
/// selects (see [`focus_square`]).
#[allow(unused_variables)]
pub(crate) fn square_at_point(scope: &str, x: i32, y: i32) -> Option<SquareNumber> {
    #[cfg(feature = "hydrate")]
    {
        let el = document().element_from_point(x as f32, y as f32)?;
        let square = el.closest(&format!("{scope}[data-square]")).ok().flatten()?;
        return square.get_attribute("data-square")?.parse::<u8>().ok();
    }
    #[allow(unreachable_code)]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_stay_on_dark_squares() {
        let ten = Layout { size: 10 };
        let step = |at, key| step_cursor(ten, at, key, false);
        assert_eq!(step(32, "ArrowRight"), 33);
        assert_eq!(step(35, "ArrowRight"), 35);
        assert_eq!(step(32, "ArrowUp"), 27);
        assert_eq!(step(32, "ArrowDown"), 38);
        assert_eq!(step(1, "ArrowUp"), 1);
        assert_eq!(step(46, "ArrowDown"), 46);
        assert_eq!(step(6, "ArrowUp"), 1);
    }

    #[test]
    fn arrows_follow_the_screen_on_a_turned_small_board() {
        let eight = Layout { size: 8 };
        // Turned round, Black's side is at the bottom: up the screen is
        // towards White's squares, and right is towards lower numbers.
        assert_eq!(step_cursor(eight, 10, "ArrowUp", true), 15);
        assert_eq!(step_cursor(eight, 10, "ArrowRight", true), 9);
        assert_eq!(step_cursor(eight, 10, "ArrowUp", false), 6);
        assert_eq!(step_cursor(eight, 32, "ArrowDown", false), 32);
        assert_eq!(step_cursor(eight, 29, "ArrowUp", true), 29, "White's back row is at the top of a turned board");
    }
}

/// A board to look at only (the replay, a game's analysis): no move to
/// enter, the last move and an optional hint shown.
#[component]
pub fn ReadOnlyBoard(
    #[prop(into)] position: Signal<AnyPosition>,
    #[prop(into)] last_move: Signal<Option<ShownMove>>,
    #[prop(into, optional)] hint: Signal<Option<ShownMove>>,
    preferences: Preferences,
    flipped: bool,
) -> impl IntoView {
    view! {
        <Board
            position=position
            options=Signal::derive(MoveOptions::none)
            last_move=last_move
            hint=hint
            on_play=Callback::new(|_| {})
            preferences=Signal::derive(move || preferences)
            flipped=Signal::derive(move || flipped)
            read_only=true
        />
    }
}
