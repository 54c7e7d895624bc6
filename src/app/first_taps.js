// Answers taps on the board in the second or two before the browser code
// has arrived on a slow phone: a tap on a piece that can move marks it and
// its destinations, as the server listed them on the board
// (`data-first-taps`, see app/input.rs's `first_taps`), and every tap is
// kept in order for the board to play again once it is live (app/board.rs
// takes the list, which tells this script to stand aside). It knows no
// rule: it shows what the server's engine wrote.
(() => {
  const kept = [];
  window.__damesEarlyTaps = kept;
  const marks = ['selected', 'final', 'step'];
  document.addEventListener('click', (event) => {
    if (window.__damesEarlyTaps !== kept) return;
    const cell = event.target.closest && event.target.closest('.board[data-first-taps] [data-square]');
    if (!cell) return;
    const board = cell.closest('.board');
    const square = cell.dataset.square;
    kept.push(Number(square));
    const entry = board.dataset.firstTaps.split(';').map((e) => e.split(':')).find((e) => e[0] === square);
    const marked = Array.from(board.querySelectorAll('.sq.final, .sq.step'), (c) => c.dataset.square);
    if (!entry && marked.includes(square)) return; // a destination: the board plays it once live
    board.querySelectorAll('[data-square]').forEach((c) => c.classList.remove(...marks));
    if (!entry) return;
    cell.classList.add('selected');
    const mark = (list, name) => list.split(',').filter(Boolean).forEach((n) => {
      const target = board.querySelector(`[data-square="${n}"]`);
      if (target) target.classList.add(name);
    });
    mark(entry[1], 'final');
    mark(entry[2], 'step');
  });
})();
