// Fetches the browser bundle as soon as the page is parsed and, once the
// page is idle, brings its islands to life, outermost first (a lazy
// island's promise is awaited before the islands inside it). Which bundle
// (its folder's address, from bundle.rs): the one every page loads,
// without the 12×12 board, or the same app with it, fetched only when the
// page shows a 12×12 board (its last square is 72). (A page whose 12×12
// board would appear later goes to an address that shows it: see
// bundle.rs.)
((firstFolder, twelveFolder, name) => {
  const twelve = document.querySelector("[data-square='72']") !== null;
  const folder = twelve ? twelveFolder : firstFolder;
  // The callbacks of the `<leptos-children>` being walked: an island found
  // inside one runs the innermost first.
  const childrenCallbacks = [];

  async function hydrateIsland(element, mod) {
    const island = mod[element.dataset.component];
    if (!island) {
      console.warn(`Îlot inconnu du code chargé : ${element.dataset.component}`);
      return;
    }
    const onChildren = childrenCallbacks[childrenCallbacks.length - 1];
    if (onChildren) onChildren();
    await island(element);
  }

  async function walk(node, mod) {
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const tag = node.tagName.toLowerCase();
    if (tag === "leptos-island") await hydrateIsland(node, mod);
    const isChildren = tag === "leptos-children";
    if (isChildren) childrenCallbacks.push(node.$$on_hydrate);
    for (const child of node.children) await walk(child, mod);
    if (isChildren) childrenCallbacks.pop();
  }

  // Both start now (the page is parsed: module scripts run then), the
  // wasm compiled as it arrives; the islands come to life when the page
  // is idle.
  const glue = import(`${folder}/${name}.js`);
  const wasm = fetch(`${folder}/${name}.wasm`);
  const start = async () => {
    const mod = await glue;
    await mod.default({ module_or_path: wasm });
    mod.hydrate();
    await walk(document.body, mod);
  };
  if ("requestIdleCallback" in window) requestIdleCallback(start);
  else start();
})
