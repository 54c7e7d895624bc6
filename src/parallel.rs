//! Work spread over threads with its results handed on in order: the
//! matches of `dames selfplay` and the games of `dames tune generate`.

/// Runs `work(0)` … `work(count - 1)` on `threads` threads and hands each
/// result to `each` on the calling thread, in index order, as soon as it
/// and the ones before it are done (so reports come in order whatever the
/// threads). An error from `each` stops the work: the threads finish the
/// item they hold and take no other.
pub fn in_order<R: Send>(
    count: usize,
    threads: usize,
    work: impl Fn(usize) -> R + Sync,
    mut each: impl FnMut(usize, R) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, count.max(1)) {
            let (send, next, work) = (send.clone(), &next, &work);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count || send.send((i, work(i))).is_err() {
                    break;
                }
            });
        }
        drop(send);
        let mut early = std::collections::BTreeMap::new();
        let mut due = 0;
        for (i, result) in receive {
            early.insert(i, result);
            while let Some(result) = early.remove(&due) {
                each(due, result)?;
                due += 1;
            }
        }
        Ok(())
    })
}
