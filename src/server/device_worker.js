// Dames's offline games' computer: the bundle's own code in a module
// worker, so that the computer's search never freezes the page. Written
// by the server for one build (it fills PKG; see src/server/offline.rs).
// Each message is { id, message }; the answer is { id, answer }, answer
// the JSON the bundle's device_compute returns (null if it threw).
import init, { device_compute } from "/__PKG__/dames.js";

const ready = init({ module_or_path: "/__PKG__/dames.wasm" });

self.onmessage = async (event) => {
  const { id, message } = event.data;
  let answer = null;
  try {
    await ready;
    answer = await device_compute(message);
  } catch (error) {
    console.error(error);
  }
  self.postMessage({ id, answer });
};
