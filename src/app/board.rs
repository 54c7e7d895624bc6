//! The board: 50 dark squares in an ARIA grid, driven by touch, mouse
//! (click or drag) or the keyboard alone, through the input state machine
//! of [`super::input`].

use super::describe::ShownMove;
use super::input::{InputState, MoveOptions, TapResult, Targets};
use crate::engine::{Color, Move, Piece, Position, Role, Square};
use leptos::prelude::*;

/// What the squares and pieces are called for screen readers.
fn piece_name(piece: Option<Piece>) -> &'static str {
    match piece {
        None => "vide",
        Some(Piece { color: Color::White, role: Role::Man }) => "pion blanc",
        Some(Piece { color: Color::White, role: Role::King }) => "dame blanche",
        Some(Piece { color: Color::Black, role: Role::Man }) => "pion noir",
        Some(Piece { color: Color::Black, role: Role::King }) => "dame noire",
    }
}

/// The square the arrow keys lead to from `at`, staying on dark squares.
pub fn step_cursor(at: Square, key: &str) -> Square {
    let (row, col) = (at.row() as i8, at.column() as i8);
    let candidates: &[(i8, i8)] = match key {
        "ArrowLeft" => &[(0, -2)],
        "ArrowRight" => &[(0, 2)],
        "ArrowUp" => &[(-1, -1), (-1, 1)],
        "ArrowDown" => &[(1, 1), (1, -1)],
        _ => &[],
    };
    candidates
        .iter()
        .filter_map(|(dr, dc)| {
            let (r, c) = (row + dr, col + dc);
            ((0..10).contains(&r) && (0..10).contains(&c)).then(|| Square::from_row_column(r as u8, c as u8)).flatten()
        })
        .next()
        .unwrap_or(at)
}

/// What every square reads to show its cues, worked out once per board.
#[derive(Clone, Copy)]
struct Cues {
    position: Signal<Position>,
    input: RwSignal<InputState>,
    /// The square that holds the keyboard focus (the one tab stop).
    cursor: RwSignal<Square>,
    targets: Memo<Targets>,
    /// Pieces jumped so far in a rafle being entered: shown as ghosts.
    jumped: Memo<Vec<Square>>,
    movable: Memo<Vec<Square>>,
    must_capture: Memo<bool>,
    last_move: Signal<Option<ShownMove>>,
}

#[component]
pub fn Board(
    /// The position shown.
    #[prop(into)]
    position: Signal<Position>,
    /// The player's legal moves now; empty when it is not their turn.
    #[prop(into)]
    options: Signal<MoveOptions>,
    /// The computer's last move, kept highlighted.
    #[prop(into)]
    last_move: Signal<Option<ShownMove>>,
    /// Called with each move the player enters.
    on_play: Callback<Move>,
    /// Square numbers shown.
    #[prop(into)]
    show_numbers: Signal<bool>,
    /// A board to look at only (the replay): its label says so.
    #[prop(optional)]
    read_only: bool,
) -> impl IntoView {
    let board_label = if read_only {
        "Damier, les blancs en bas. Flèches pour parcourir les cases."
    } else {
        "Damier, les blancs en bas. Flèches pour se déplacer, Entrée pour choisir, Échap pour annuler."
    };
    let input = RwSignal::new(InputState::Idle);
    let drag_from = RwSignal::new(None::<Square>);

    // A new position (the computer answered, or a new game) drops any
    // selection made on the old one.
    Effect::new(move |_| {
        position.track();
        options.track();
        input.set(InputState::Idle);
    });

    let cues = Cues {
        position,
        input,
        cursor: RwSignal::new(Square::new(32).expect("a square")),
        targets: Memo::new(move |_| input.with(|i| options.with(|o| i.targets(o)))),
        jumped: Memo::new(move |_| input.with(|i| position.with(|p| i.jumped(p)))),
        movable: Memo::new(move |_| options.with(|o| o.movable())),
        must_capture: Memo::new(move |_| options.with(|o| o.must_capture())),
        last_move,
    };

    let tap = Callback::new(move |square: Square| {
        let result = options.with_untracked(|o| input.try_update(|i| i.tap(o, square)));
        if let Some(TapResult::Play(mv)) = result {
            on_play.run(mv);
        }
    });

    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        match key.as_str() {
            "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" => {
                ev.prevent_default();
                let next = step_cursor(cues.cursor.get_untracked(), &key);
                cues.cursor.set(next);
                focus_square(next);
            }
            "Enter" | " " => {
                ev.prevent_default();
                tap.run(cues.cursor.get_untracked());
            }
            "Escape" => {
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
        if let (Some(start), Some(end)) = (start, square_at_point(ev.client_x(), ev.client_y())) {
            if start != end {
                if input.with_untracked(|i| i.selected()) != Some(start) {
                    tap.run(start);
                }
                tap.run(end);
            }
        }
    };

    let rows = (0..10u8)
        .map(|row| {
            let cells = (0..10u8)
                .map(|col| match Square::from_row_column(row, col) {
                    None => view! { <div class="sq light" role="presentation"></div> }.into_any(),
                    Some(square) => view! { <DarkSquare square cues on_tap=tap drag_from/> }.into_any(),
                })
                .collect_view();
            view! { <div class="row" role="row">{cells}</div> }
        })
        .collect_view();

    view! {
        <div
            class="board"
            class:numbers=move || show_numbers.get()
            role="grid"
            aria-label=board_label
            data-fen=move || position.with(|p| p.to_fen())
            on:keydown=on_keydown
            on:pointerup=on_pointerup
        >
            {rows}
        </div>
    }
}

/// One dark square: its piece, its cues as classes, and its name for
/// screen readers.
#[component]
fn DarkSquare(
    square: Square,
    cues: Cues,
    on_tap: Callback<Square>,
    drag_from: RwSignal<Option<Square>>,
) -> impl IntoView {
    let Cues { position, input, cursor, targets, jumped, movable, must_capture, last_move } = cues;
    let piece = move || position.with(|p| p.piece_at(square));
    let selected = move || input.with(|i| i.selected() == Some(square));
    let label = move || {
        let mut text = format!("{}, {}", square.number(), piece_name(piece()));
        if selected() {
            text.push_str(", sélectionné");
        } else if targets.with(|t| t.finals.contains(&square) || t.steps.contains(&square)) {
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
            data-square=square.number()
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
            on:click=move |_| {
                cursor.set(square);
                on_tap.run(square);
            }
            on:focus=move |_| cursor.set(square)
            on:pointerdown=move |_| drag_from.set(Some(square))
        >
            <span class="num" aria-hidden="true">{square.number()}</span>
            {move || piece().map(|p| view! {
                <span
                    class=format!("piece {}", p.code())
                    class:arrived=on_last_path
                    data-piece=p.code()
                    aria-hidden="true"
                ></span>
            })}
        </div>
    }
}

/// Moves the keyboard focus to a square (in the browser).
#[allow(unused_variables)]
fn focus_square(square: Square) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        if let Some(el) = document()
            .query_selector(&format!("[data-square='{}']", square.number()))
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    }
}

/// The square under a pointer (in the browser).
#[allow(unused_variables)]
fn square_at_point(x: i32, y: i32) -> Option<Square> {
    #[cfg(feature = "hydrate")]
    {
        let el = document().element_from_point(x as f32, y as f32)?;
        let square = el.closest("[data-square]").ok().flatten()?;
        return square.get_attribute("data-square")?.parse::<u8>().ok().and_then(Square::new);
    }
    #[allow(unreachable_code)]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_stay_on_dark_squares() {
        let s = |n| Square::new(n).unwrap();
        assert_eq!(step_cursor(s(32), "ArrowRight"), s(33));
        assert_eq!(step_cursor(s(35), "ArrowRight"), s(35));
        assert_eq!(step_cursor(s(32), "ArrowUp"), s(27));
        assert_eq!(step_cursor(s(32), "ArrowDown"), s(38));
        assert_eq!(step_cursor(s(1), "ArrowUp"), s(1));
        assert_eq!(step_cursor(s(46), "ArrowDown"), s(46));
        assert_eq!(step_cursor(s(6), "ArrowUp"), s(1));
    }
}
