//! Moves that move: the last move's piece slides from its square along its
//! path (a rafle jump by jump), and the pieces it took leave at the end,
//! with a sound when the player wants one. Browser only, and no motion
//! under `prefers-reduced-motion`. Input never
//! waits for it: the board is already in the new position, the motion is
//! drawn over it. What follows a move (the computer's reply) waits until
//! the move has landed: [`landed`].

use crate::app::describe::ShownMove;
use crate::engine::any::AnyPosition;
use leptos::prelude::*;

/// One step of a move: a quiet move, or one jump of a rafle.
pub const STEP_MS: f64 = 180.0;

/// Animates each new last move on the board, and sounds it when `sound`
/// holds: called once by the board.
pub fn animate_moves(position: Signal<AnyPosition>, last_move: Signal<Option<ShownMove>>, sound: Signal<bool>) {
    #[cfg(feature = "hydrate")]
    Effect::new(move |previous: Option<AnyPosition>| {
        let now = position.get();
        // Not on the first position shown: it was not played here.
        if let Some(before) = previous.filter(|before| *before != now) {
            if let Some(shown) = last_move.get_untracked().filter(|shown| just_played(&before, shown)) {
                browser::slide(&before, &shown);
                if sound.get_untracked() {
                    let cue =
                        if shown.captured.is_empty() { super::sound::Cue::Move } else { super::sound::Cue::Capture };
                    super::sound::play(cue);
                }
            }
        }
        now
    });
    let _ = (position, last_move, sound);
}

/// Whether `shown` is a move just played from `before` (not an older last
/// move shown again after a take-back): its piece stood on its start, and
/// its end was empty unless the rafle came back to its start.
pub fn just_played(before: &AnyPosition, shown: &ShownMove) -> bool {
    let Some(last) = shown.path.last().copied() else { return false };
    before.piece_at(shown.from).is_some() && (last == shown.from || before.piece_at(last).is_none())
}

/// Waits until the move being drawn, if any, has landed.
pub async fn landed() {
    #[cfg(feature = "hydrate")]
    {
        let left = browser::LANDS_AT.get() - js_sys::Date::now();
        if let (true, Some(window)) = (left > 0.0, web_sys::window()) {
            let timer = js_sys::Promise::new(&mut |resolve, _| {
                let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, left.ceil() as i32);
            });
            let _ = wasm_bindgen_futures::JsFuture::from(timer).await;
        }
    }
}

#[cfg(feature = "hydrate")]
mod browser {
    use super::STEP_MS;
    use crate::app::describe::ShownMove;
    use crate::app::input::SquareNumber;
    use crate::engine::any::AnyPosition;
    use std::cell::Cell;
    use wasm_bindgen::{JsCast, JsValue};

    thread_local! {
        /// When the move being drawn lands (ms since the epoch).
        pub static LANDS_AT: Cell<f64> = const { Cell::new(0.0) };
    }

    fn reduced_motion() -> bool {
        web_sys::window()
            .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
            .is_some_and(|query| query.matches())
    }

    fn square(document: &web_sys::Document, number: impl std::fmt::Display) -> Option<web_sys::Element> {
        document.query_selector(&format!(".board [data-square=\"{number}\"]")).ok().flatten()
    }

    /// The offset of square `from` from square `to`, in pixels.
    fn offset(from: &web_sys::Element, to: &web_sys::Element) -> (f64, f64) {
        let (a, b) = (from.get_bounding_client_rect(), to.get_bounding_client_rect());
        (a.left() - b.left(), a.top() - b.top())
    }

    /// A keyframe: `transform`, and for a leaving piece its opacity at
    /// `offset` (0 to 1) of the animation.
    fn frame(transform: &str, fading: Option<(f64, f64)>) -> JsValue {
        let frame = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&frame, &"transform".into(), &transform.into());
        if let Some((opacity, offset)) = fading {
            let _ = js_sys::Reflect::set(&frame, &"opacity".into(), &opacity.into());
            let _ = js_sys::Reflect::set(&frame, &"offset".into(), &offset.into());
        }
        frame.into()
    }

    /// `element.animate(frames, { duration, easing })`, called through
    /// JavaScript: web-sys gives its options type behind its unstable APIs
    /// only.
    fn animate(
        element: &web_sys::Element,
        frames: &js_sys::Array,
        duration: f64,
        easing: &str,
    ) -> Option<web_sys::Animation> {
        let options = js_sys::Object::new();
        js_sys::Reflect::set(&options, &"duration".into(), &duration.into()).ok()?;
        js_sys::Reflect::set(&options, &"easing".into(), &easing.into()).ok()?;
        let method: js_sys::Function = js_sys::Reflect::get(element, &"animate".into()).ok()?.dyn_into().ok()?;
        method.call2(element, frames, &options).ok()?.dyn_into().ok()
    }

    /// Draws `shown`, the move from `before`: its piece slides along its
    /// path, then the pieces it took fade out on their squares.
    pub fn slide(before: &AnyPosition, shown: &ShownMove) {
        let (Some(document), false) = (web_sys::window().and_then(|w| w.document()), reduced_motion()) else {
            return;
        };
        let Some(last) = shown.path.last().copied() else { return };
        let (Some(start), Some(end)) = (square(&document, shown.from), square(&document, last)) else { return };
        let Some(piece) = end.query_selector(".piece").ok().flatten() else { return };
        // The squares the piece stands on, from its start to its end.
        let mut stops = vec![offset(&start, &end)];
        for step in &shown.path {
            if let Some(at) = square(&document, step) {
                stops.push(offset(&at, &end));
            }
        }
        let frames = js_sys::Array::new();
        for (x, y) in &stops {
            // Whole pixels: a float's formatting alone would add some 15 KB
            // of wasm to every page.
            let (x, y) = (x.round() as i32, y.round() as i32);
            frames.push(&frame(&format!("translate({x}px, {y}px)"), None));
        }
        let duration = STEP_MS * (stops.len() - 1).max(1) as f64;
        animate(&piece, &frames, duration, "ease-in-out");
        LANDS_AT.set(js_sys::Date::now() + duration);
        for taken in &shown.captured {
            leave(&document, before, *taken, duration);
        }
    }

    /// A piece taken on `square`, drawn again there until the move lands,
    /// then faded out.
    fn leave(document: &web_sys::Document, before: &AnyPosition, taken: SquareNumber, duration: f64) {
        let (Some(piece), Some(at)) = (before.piece_at(taken), square(document, taken)) else { return };
        let Ok(ghost) = document.create_element("span") else { return };
        ghost.set_class_name(&format!("piece {} leaving", piece.code()));
        let _ = ghost.set_attribute("aria-hidden", "true");
        let _ = at.append_child(&ghost);
        let fade = 150.0;
        let landed = duration / (duration + fade);
        let frames = js_sys::Array::of3(
            &frame("none", Some((1.0, 0.0))),
            &frame("none", Some((1.0, landed))),
            &frame("scale(.7)", Some((0.0, 1.0))),
        );
        let Some(animation) = animate(&ghost, &frames, duration + fade, "linear") else {
            ghost.remove();
            return;
        };
        let on_finish = wasm_bindgen::closure::Closure::once_into_js(move || ghost.remove());
        animation.set_onfinish(Some(on_finish.unchecked_ref()));
    }
}
