//! The page's side of the offline games' worker: one module worker
//! (`/appareil.js`, written by the server for the build) that runs the
//! bundle's own code, so that the computer's search never freezes the
//! page. Requests carry a number; the worker answers each with it. Where
//! module workers are missing, the search runs on the page.

use super::device::compute_on_device;
use crate::protocol::AppError;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The worker and the answers it owes, by request number.
struct DeviceWorker {
    worker: web_sys::Worker,
    owed: Rc<RefCell<HashMap<u32, js_sys::Function>>>,
    next: u32,
    _on_answer: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

thread_local! {
    static WORKER: RefCell<Option<DeviceWorker>> = const { RefCell::new(None) };
}

fn start() -> Option<DeviceWorker> {
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options(super::DEVICE_WORKER_PATH, &options).ok()?;
    let owed: Rc<RefCell<HashMap<u32, js_sys::Function>>> = Rc::default();
    let waiting = owed.clone();
    let on_answer = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
        let data = event.data();
        let id = js_sys::Reflect::get(&data, &"id".into()).ok().and_then(|v| v.as_f64()).unwrap_or(-1.0) as u32;
        let answer = js_sys::Reflect::get(&data, &"answer".into()).unwrap_or(JsValue::NULL);
        if let Some(resolve) = waiting.borrow_mut().remove(&id) {
            let _ = resolve.call1(&JsValue::NULL, &answer);
        }
    });
    worker.set_onmessage(Some(on_answer.as_ref().unchecked_ref()));
    Some(DeviceWorker { worker, owed, next: 0, _on_answer: on_answer })
}

/// The worker's answer to `message` (see `compute_on_device`).
pub async fn compute(message: String) -> Result<String, AppError> {
    let promise = WORKER.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            *slot = start();
        }
        let worker = slot.as_mut()?;
        let id = worker.next;
        worker.next = worker.next.wrapping_add(1);
        let owed = worker.owed.clone();
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            owed.borrow_mut().insert(id, resolve);
        });
        let request = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&request, &"id".into(), &id.into());
        let _ = js_sys::Reflect::set(&request, &"message".into(), &JsValue::from_str(&message));
        worker.worker.post_message(&request).ok()?;
        Some(promise)
    });
    match promise {
        Some(promise) => {
            let answer = wasm_bindgen_futures::JsFuture::from(promise).await.map_err(|_| AppError::Internal)?;
            answer.as_string().ok_or(AppError::Internal)
        }
        // No worker here: on the page, then.
        None => Ok(compute_on_device(message).await),
    }
}
