//! Short sounds for a move, a capture and the end of a game, synthesized
//! with Web Audio oscillators: no file is fetched. Played only when the
//! player turned sound on in the settings; silent on the server.

/// What happened on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cue {
    Move,
    Capture,
    End,
}

/// The notes of a cue: (start in seconds from now, frequency in Hz,
/// length in seconds). A move is one low tock, a capture two quick ones, the
/// end three rising notes (after the last move's own sound).
pub fn notes(cue: Cue) -> &'static [(f64, f64, f64)] {
    match cue {
        Cue::Move => &[(0.0, 330.0, 0.07)],
        Cue::Capture => &[(0.0, 520.0, 0.06), (0.08, 390.0, 0.08)],
        Cue::End => &[(0.25, 523.25, 0.14), (0.4, 659.25, 0.14), (0.55, 783.99, 0.3)],
    }
}

/// Plays `cue` (in the browser; a browser that refuses audio stays quiet).
pub fn play(cue: Cue) {
    #[cfg(feature = "hydrate")]
    browser::play(cue);
    let _ = cue;
}

#[cfg(feature = "hydrate")]
mod browser {
    use super::{notes, Cue};
    use std::cell::RefCell;

    thread_local! {
        /// One context for the page: browsers limit how many there are.
        static CONTEXT: RefCell<Option<web_sys::AudioContext>> = const { RefCell::new(None) };
    }

    pub fn play(cue: Cue) {
        CONTEXT.with(|cell| {
            let mut cell = cell.borrow_mut();
            if cell.is_none() {
                *cell = web_sys::AudioContext::new().ok();
            }
            let Some(context) = cell.as_ref() else { return };
            // A context made before the page was touched starts suspended.
            let _ = context.resume();
            for &(start, frequency, length) in notes(cue) {
                let _ = note(context, context.current_time() + start, frequency, length);
            }
        });
    }

    /// One note: a triangle wave whose volume falls away quickly, like a
    /// piece set down on wood.
    fn note(
        context: &web_sys::AudioContext,
        at: f64,
        frequency: f64,
        length: f64,
    ) -> Result<(), wasm_bindgen::JsValue> {
        let oscillator = context.create_oscillator()?;
        oscillator.set_type(web_sys::OscillatorType::Triangle);
        oscillator.frequency().set_value_at_time(frequency as f32, at)?;
        let gain = context.create_gain()?;
        gain.gain().set_value_at_time(0.3, at)?;
        gain.gain().exponential_ramp_to_value_at_time(0.001, at + length)?;
        oscillator.connect_with_audio_node(&gain)?;
        gain.connect_with_audio_node(&context.destination())?;
        oscillator.start_with_when(at)?;
        oscillator.stop_with_when(at + length)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cue_is_short_and_audible() {
        for cue in [Cue::Move, Cue::Capture, Cue::End] {
            let notes = notes(cue);
            assert!(!notes.is_empty());
            let ends = notes.iter().map(|(start, _, length)| start + length).fold(0.0, f64::max);
            assert!(ends <= 1.0, "{cue:?} lasts {ends} s");
            assert!(notes.iter().all(|(_, f, l)| (100.0..2000.0).contains(f) && *l > 0.02), "{cue:?}");
        }
        assert_ne!(notes(Cue::Move), notes(Cue::Capture), "a capture sounds unlike a move");
    }
}
