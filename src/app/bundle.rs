//! Which browser bundle a page loads. There are two, built from the same
//! code: the one every page loads, without the 12×12 board (the engine's
//! `twelve` feature, off: about 8 KB of brotli less on the first page),
//! and, in its `douze/` folder, the one with it, which only a page showing
//! a 12×12 board fetches (bundle_loader.js looks for the board's square
//! 72). A page where such a board would appear after loading (the analysis
//! board's rules) goes instead to an address that shows it.

use crate::engine::Rules;
use leptos::prelude::*;

/// The `<head>`'s part: the first bundle preloaded, and the script that
/// picks a bundle, loads it when the page is idle and hydrates the
/// islands. It stands in for Leptos's `HydrationScripts`, which knows one
/// bundle only.
#[component]
pub fn BundleScripts(options: LeptosOptions) -> impl IntoView {
    // Islands mode: only the islands carry hydration markers (as
    // `HydrationScripts` decides).
    if let Some(context) = Owner::current_shared_context() {
        context.set_is_hydrating(false);
    }
    let pkg = options.site_pkg_dir.to_string();
    let (js, wasm) = (format!("/{pkg}/{}.js", options.output_name), format!("/{pkg}/{}.wasm", options.output_name));
    let folder = serde_json::to_string(&pkg).unwrap_or_default();
    let script = format!("{}({folder});", include_str!("bundle_loader.js").trim_end());
    // `crossorigin`: a preload is used only by a request of the same
    // credentials mode, and `fetch` (which the glue loads the wasm with)
    // sends them to the same origin only; without it the wasm came twice.
    view! {
        <link rel="modulepreload" href=js crossorigin=""/>
        <link rel="preload" href=wasm r#as="fetch" r#type="application/wasm" crossorigin=""/>
        <script type="module">{script}</script>
    }
}

/// Whether the code running lacks the board of `rules` (only the first
/// bundle does, and only the 12×12 board).
pub fn lacks_board(rules: Rules) -> bool {
    !cfg!(feature = "twelve") && rules.size == 12
}

/// Goes to `path` (with its query), a page that shows the board the
/// running code lacks: that page loads the bundle that has it.
pub fn go_to_full_bundle(path: &str) {
    #[cfg(feature = "hydrate")]
    if let Err(e) = window().location().assign(path) {
        leptos::logging::error!("{path} : {e:?}");
    }
    let _ = path;
}
