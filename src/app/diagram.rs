//! Small boards drawn on the server for the rules page: a position, and a
//! move shown with its path and the pieces it takes. The examples are data,
//! checked against the engine by the tests below.

use crate::engine::any::AnyPosition;
use crate::engine::Rules;
use leptos::prelude::*;

/// One diagram: a position under some rules, and the move it shows.
pub struct Example {
    /// The rules in their text form.
    pub rules: &'static str,
    pub fen: &'static str,
    /// The move shown, in long form (it must be legal).
    pub mv: Option<&'static str>,
    pub caption: &'static str,
}

pub const START_TEN: Example = Example {
    rules: "international",
    fen: "W:W31-50:B1-20",
    mv: None,
    caption: "Dames internationales : 20 pions chacun sur 10 × 10, les blancs commencent.",
};
pub const START_EIGHT: Example = Example {
    rules: "english",
    fen: "B:W21-32:B1-12",
    mv: None,
    caption: "Dames anglaises, russes et brésiliennes : 12 pions chacun sur 8 × 8.",
};
pub const RAFLE: Example = Example {
    rules: "international",
    fen: "W:W37:B32,21,22",
    mv: Some("37x26{21,22,32}"),
    caption: "Une rafle : le pion de 37 prend trois pièces et s'arrête en 26 (37x26).",
};
pub const MAJORITY: Example = Example {
    rules: "international",
    fen: "W:W32:B27,28,18",
    mv: Some("32x12{18,28}"),
    caption: "Prise majoritaire : 32x21 ne prendrait qu'un pion ; il faut jouer 32x12, qui en prend deux.",
};
pub const FLYING_KING: Example = Example {
    rules: "international",
    fen: "W:WK46:B28,19",
    mv: Some("46x5{19,28}"),
    caption: "La dame volante prend à distance et se pose où elle veut derrière (ici en 5, 10 ou 14).",
};
pub const IN_PASSING_INTERNATIONAL: Example = Example {
    rules: "international",
    fen: "W:W14:B9,8",
    mv: Some("14x12{8,9}"),
    caption: "Internationales : le pion touche la dernière rangée en 3 mais repart, il reste pion (14x12).",
};
pub const IN_PASSING_ENGLISH: Example = Example {
    rules: "english",
    fen: "W:W9:B6,7",
    mv: Some("9x2{6}"),
    caption: "Anglaises : arrivé en 2, le pion devient dame et le coup s'arrête, même si 7 pouvait être pris.",
};
pub const IN_PASSING_RUSSIAN: Example = Example {
    rules: "russian",
    fen: "W:W9:B6,11",
    mv: Some("9x20{6,11}"),
    caption: "Russes : couronné en 2, le pion continue aussitôt en dame volante et prend 11 à distance.",
};
pub const NUMBERS_TEN: Example =
    Example { rules: "international", fen: "W:W:B", mv: None, caption: "La numérotation du damier de 10 × 10." };
pub const NUMBERS_EIGHT: Example =
    Example { rules: "english", fen: "B:W:B", mv: None, caption: "La numérotation du damier de 8 × 8." };

/// Every example, for the tests.
pub const ALL: [&Example; 10] = [
    &START_TEN,
    &START_EIGHT,
    &RAFLE,
    &MAJORITY,
    &FLYING_KING,
    &IN_PASSING_INTERNATIONAL,
    &IN_PASSING_ENGLISH,
    &IN_PASSING_RUSSIAN,
    &NUMBERS_TEN,
    &NUMBERS_EIGHT,
];

/// What a diagram draws: each row's squares, as (number, piece code,
/// cue classes); `None` for a light square.
type Rows = Vec<Vec<Option<(u8, Option<&'static str>, &'static str)>>>;

fn rows_of(example: &Example) -> Option<Rows> {
    let rules = Rules::parse(example.rules).ok()?;
    let pos = AnyPosition::from_fen(example.fen, rules).ok()?;
    let shown = match example.mv {
        Some(long) => Some(pos.choices().into_iter().find(|c| c.long == long)?),
        None => None,
    };
    let layout = pos.layout();
    let cue = |n: u8| match &shown {
        Some(m) if m.from == n => "from",
        Some(m) if m.captured.contains(&n) => "taken",
        Some(m) if m.paths[0].contains(&n) => "path",
        _ => "",
    };
    Some(
        (0..layout.size)
            .map(|r| {
                (0..layout.size)
                    .map(|c| layout.square_at(r, c).map(|n| (n, pos.piece_at(n).map(|p| p.code()), cue(n))))
                    .collect()
            })
            .collect(),
    )
}

/// A small board with a caption; `numbers` writes every square's number.
#[component]
pub fn Diagram(example: &'static Example, #[prop(optional)] numbers: bool) -> impl IntoView {
    let rows = rows_of(example).unwrap_or_default();
    let size = rows.len();
    view! {
        <figure class="diagram">
            <div class="mini-board" class:numbered=numbers style=format!("--size: {size}") role="img" aria-label=example.caption>
                {rows.into_iter().flatten().map(|cell| match cell {
                    None => view! { <span class="msq light"></span> }.into_any(),
                    Some((n, piece, cue)) => view! {
                        <span class=format!("msq dark {cue}")>
                            {piece.map(|code| view! { <span class=format!("piece {code}")></span> })}
                            {numbers.then(|| view! { <span class="mnum">{n}</span> })}
                        </span>
                    }.into_any(),
                }).collect_view()}
            </div>
            <figcaption>{example.caption}</figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_is_a_legal_position_and_move() {
        for example in ALL {
            let rows = rows_of(example).unwrap_or_else(|| panic!("{}", example.caption));
            let size = Rules::parse(example.rules).unwrap().size as usize;
            assert_eq!(rows.len(), size);
            if example.mv.is_some() {
                assert!(rows.iter().flatten().flatten().any(|(_, _, cue)| *cue == "taken"), "{}", example.caption);
            }
        }
        let start = rows_of(&START_EIGHT).unwrap();
        assert_eq!(start[0][1], Some((1, Some("bm"), "")));
        assert_eq!(start[7][0], Some((29, Some("wm"), "")));
    }
}
