//! The position editor, of the electronic board and the analysis board: a
//! board of the position's size whose squares cycle through the pieces, a
//! tray to paint or drag them with, the side to move, and the buttons that
//! take the position or give up.

use crate::app::board::{focus_square, piece_name, square_at_point, step_cursor, LightSquare, PieceMark};
use crate::app::input::SquareNumber;
use crate::engine::any::{AnyPosition, Layout};
use crate::engine::{Color, Piece, Role, Rules};
use leptos::prelude::*;

/// What a square cycles through when tapped in the editor.
const CYCLE: [Option<Piece>; 5] = [
    None,
    Some(Piece { color: Color::White, role: Role::Man }),
    Some(Piece { color: Color::White, role: Role::King }),
    Some(Piece { color: Color::Black, role: Role::Man }),
    Some(Piece { color: Color::Black, role: Role::King }),
];

/// The position of the editor's squares (square `i + 1` at `i`) on a board
/// of `layout`, as FEN.
pub fn editor_fen(layout: Layout, squares: &[Option<Piece>], turn: Color) -> String {
    let pieces = squares.iter().enumerate().filter_map(|(i, piece)| piece.map(|p| (i as u8 + 1, p)));
    layout.fen_of(turn, pieces)
}

/// The editor's squares for a position.
fn editor_squares(pos: &AnyPosition) -> Vec<Option<Piece>> {
    (1..=pos.layout().squares()).map(|n| pos.piece_at(n)).collect()
}

/// What the editor works on: the rules (the board's size, its start), the
/// pieces of every square (square `i + 1` at `i`), the side to move, the
/// piece the tray paints with (none: a tap cycles), the square of the
/// keyboard focus, and a piece being dragged.
#[derive(Clone, Copy)]
struct Draft {
    rules: Rules,
    squares: RwSignal<Vec<Option<Piece>>>,
    turn: RwSignal<Color>,
    brush: RwSignal<Option<Option<Piece>>>,
    cursor: RwSignal<SquareNumber>,
    dragging: RwSignal<Option<Option<Piece>>>,
}

impl Draft {
    fn of(start: &AnyPosition) -> Draft {
        let rules = start.rules();
        Draft {
            rules,
            squares: RwSignal::new(editor_squares(start)),
            turn: RwSignal::new(start.turn()),
            brush: RwSignal::new(None),
            // The second square of White's front row, as on the board.
            cursor: RwSignal::new(rules.front_row(Color::White).start() + 1),
            dragging: RwSignal::new(None),
        }
    }

    /// A tap on square `n`: the brush's piece, or the next in the cycle.
    fn tap(self, n: SquareNumber) {
        let brush = self.brush.get_untracked();
        self.squares.update(|s| {
            let at = &mut s[n as usize - 1];
            *at = match brush {
                Some(code) => code,
                None => CYCLE[(CYCLE.iter().position(|c| c == at).unwrap_or(0) + 1) % CYCLE.len()],
            };
        })
    }

    fn layout(self) -> Layout {
        Layout { size: self.rules.size }
    }

    fn fen(self) -> String {
        self.squares.with(|s| editor_fen(self.layout(), s, self.turn.get()))
    }
}

/// Sets up a position: tap a square to cycle empty → white man → white
/// king → black man → black king, or pick a piece in the tray and tap or
/// drag it onto squares; the keyboard moves with the arrows and cycles with
/// Enter or Space.
#[component]
pub fn PositionEditor(
    /// The position to start from, on its rules' board.
    start: AnyPosition,
    /// What the screen says of the position set up.
    hint: &'static str,
    /// The button that takes it.
    done_label: &'static str,
    on_done: Callback<(String, Color)>,
    on_cancel: Callback<()>,
    busy: RwSignal<bool>,
) -> impl IntoView {
    let draft = Draft::of(&start);
    let on_pointerup = move |ev: leptos::ev::PointerEvent| {
        if let (Some(code), Some(n)) =
            (draft.dragging.get_untracked(), square_at_point(".editor-board ", ev.client_x(), ev.client_y()))
        {
            draft.squares.update(|s| s[n as usize - 1] = code);
        }
        draft.dragging.set(None);
    };
    view! {
        <div class="editor" on:pointerup=on_pointerup>
            <EditorBoard draft/>
            <EditorTray draft/>
            <EditorSetUp draft/>
            <p class="hint">{hint}</p>
            <div class="buttons">
                <button type="button" class="primary" disabled=move || busy.get()
                    on:click=move |_| on_done.run((draft.fen(), draft.turn.get()))>{done_label}</button>
                <button type="button" on:click=move |_| on_cancel.run(())>"Annuler"</button>
            </div>
        </div>
    }
}

/// The editor's squares in an ARIA grid, moved over with the arrows.
#[component]
fn EditorBoard(draft: Draft) -> impl IntoView {
    let layout = draft.layout();
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        match key.as_str() {
            "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" => {
                ev.prevent_default();
                let next = step_cursor(layout, draft.cursor.get_untracked(), &key, false);
                draft.cursor.set(next);
                focus_square(".editor-board ", next);
            }
            "Enter" | " " => {
                ev.prevent_default();
                draft.tap(draft.cursor.get_untracked());
            }
            _ => {}
        }
    };
    let rows = (0..layout.size)
        .map(|r| {
            let cells = (0..layout.size)
                .map(|c| match layout.square_at(r, c) {
                    None => view! { <LightSquare/> }.into_any(),
                    Some(n) => view! { <EditorSquare n draft/> }.into_any(),
                })
                .collect_view();
            view! { <div class="row" role="row">{cells}</div> }
        })
        .collect_view();
    view! {
        <div
            class="board editor-board"
            style=format!("--size: {}", layout.size)
            role="grid"
            aria-label="Mise en place : flèches pour se déplacer, Entrée pour changer la pièce de la case."
            on:keydown=on_keydown
            data-fen=move || draft.fen()
        >
            {rows}
        </div>
    }
}

/// One of the editor's dark squares.
#[component]
fn EditorSquare(n: SquareNumber, draft: Draft) -> impl IntoView {
    let piece = move || draft.squares.with(|s| s[n as usize - 1]);
    view! {
        <div
            class="sq dark"
            role="gridcell"
            data-square=n
            tabindex=move || if draft.cursor.get() == n { "0" } else { "-1" }
            aria-label=move || format!("{n}, {}", piece_name(piece()))
            on:click=move |_| {
                draft.cursor.set(n);
                draft.tap(n);
            }
            on:focus=move |_| draft.cursor.set(n)
        >
            {move || piece().map(|p| view! { <PieceMark piece=p/> })}
        </div>
    }
}

/// The pieces to paint with (and the eraser): pressed, a tap paints
/// squares with it; dragged, it lands where it is let go.
#[component]
fn EditorTray(draft: Draft) -> impl IntoView {
    let Draft { brush, dragging, .. } = draft;
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
    view! { <div class="tray" role="group" aria-label="Pièces à poser">{tray}</div> }
}

/// Clearing the board, the start position, and the side to move.
#[component]
fn EditorSetUp(draft: Draft) -> impl IntoView {
    let Draft { squares, turn, .. } = draft;
    view! {
        <div class="buttons">
            <button type="button" on:click=move |_| squares.set(vec![None; draft.layout().squares() as usize])>"Vider le damier"</button>
            <button type="button" on:click=move |_| {
                let start = AnyPosition::initial(draft.rules).expect("rules checked when read have a start");
                squares.set(editor_squares(&start));
                turn.set(start.turn());
            }>"Position de départ"</button>
        </div>
        <div class="field" role="radiogroup" aria-label="Camp au trait">
            <label class="choice"><input type="radio" name="trait-edition" prop:checked=move || turn.get() == Color::White
                on:change=move |_| turn.set(Color::White)/>"Les blancs ont le trait"</label>
            <label class="choice"><input type="radio" name="trait-edition" prop:checked=move || turn.get() == Color::Black
                on:change=move |_| turn.set(Color::Black)/>"Les noirs ont le trait"</label>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editor_writes_fen_the_engine_reads() {
        let start = AnyPosition::initial(Rules::ELECTRONIC).unwrap();
        let squares = editor_squares(&start);
        let ten = Layout { size: 10 };
        assert_eq!(editor_fen(ten, &squares, Color::White), "W:W31-50:B1-20", "as the engine writes it");
        let mut squares = vec![None; 50];
        squares[46] = CYCLE[2];
        squares[3] = CYCLE[4];
        squares[29] = CYCLE[1];
        let fen = editor_fen(ten, &squares, Color::Black);
        assert_eq!(fen, "B:W30,K47:BK4");
        assert_eq!(AnyPosition::from_fen(&fen, Rules::INTERNATIONAL).unwrap().to_fen(), "B:W30,K47:BK4");
        // Any board: English draughts' start on 8×8.
        let english = AnyPosition::initial(Rules::parse("english").unwrap()).unwrap();
        assert_eq!(editor_fen(english.layout(), &editor_squares(&english), english.turn()), "B:W21-32:B1-12");
    }
}
