//! Which browser bundle a page loads. There are two, built from the same
//! code: the one every page loads, without the 12×12 board (the engine's
//! `twelve` feature, off: about 8 KB of brotli less on the first page),
//! and, in its `douze/` folder, the one with it, which only a page showing
//! a 12×12 board fetches (bundle_loader.js looks for the board's square
//! 72). A page where such a board would appear after loading (the analysis
//! board's rules) goes instead to an address that shows it.

use leptos::prelude::*;
use leptos_meta::Link;

/// Where the bundles are: the first one's folder (`pkg/<hash>`) and the
/// main module's name. The shell provides it to every page.
#[derive(Clone, Debug)]
pub struct BundleFolder {
    pub pkg: String,
    pub name: String,
}

impl BundleFolder {
    pub fn of(options: &LeptosOptions) -> BundleFolder {
        BundleFolder { pkg: options.site_pkg_dir.to_string(), name: options.output_name.to_string() }
    }

    /// The address of the folder of the bundle that has the board of
    /// `size` squares a side (`scripts/bundle-site.sh` lays them out).
    fn for_board(&self, size: u8) -> String {
        if size == 12 {
            format!("/{}/douze", self.pkg)
        } else {
            format!("/{}", self.pkg)
        }
    }
}

/// The `<head>`'s part: the script that picks a bundle, fetches it at
/// once and hydrates the islands when the page is idle. It stands in for
/// Leptos's `HydrationScripts`, which knows one bundle only.
#[component]
pub fn BundleScripts(folder: BundleFolder) -> impl IntoView {
    // Islands mode: only the islands carry hydration markers (as
    // `HydrationScripts` decides).
    if let Some(context) = Owner::current_shared_context() {
        context.set_is_hydrating(false);
    }
    let text = |value: &str| serde_json::to_string(value).unwrap_or_default();
    let (first, twelve) = (text(&folder.for_board(10)), text(&folder.for_board(12)));
    let script = format!("{}({first}, {twelve}, {});", include_str!("bundle_loader.js").trim_end(), text(&folder.name));
    view! { <script type="module">{script}</script> }
}

/// The preloads of the bundle a board of `size` squares a side needs, put
/// in the `<head>` (by `leptos_meta`) by the server's part of each page
/// with a board, which knows its rules once the game is read: the head
/// alone cannot know which bundle the page needs. The wasm is then on its
/// way while the page arrives (a page without a board fetches its bundle
/// when it has been parsed: about 0.3 s later on a slow phone, the
/// README's time to the first tap says).
#[component]
pub fn BundlePreload(size: u8) -> impl IntoView {
    use_context::<BundleFolder>().map(|bundle| {
        let folder = bundle.for_board(size);
        // `crossorigin`: a preload serves only a request of the same
        // credentials mode, and `fetch` (which loads the wasm) sends them
        // to the same origin only; without it the wasm came twice.
        view! {
            <Link rel="modulepreload" href=format!("{folder}/{}.js", bundle.name) crossorigin=""/>
            <Link
                rel="preload"
                href=format!("{folder}/{}.wasm", bundle.name)
                as_="fetch"
                type_="application/wasm"
                crossorigin=""
            />
        }
    })
}

/// Goes to `path` (with its query), a page that shows a board the running
/// code lacks (the engine answered `PositionError::BoardNotBuilt`): that
/// page loads the bundle that has it.
pub fn go_to_full_bundle(path: &str) {
    #[cfg(feature = "hydrate")]
    if let Err(e) = window().location().assign(path) {
        leptos::logging::error!("{path} : {e:?}");
    }
    let _ = path;
}
