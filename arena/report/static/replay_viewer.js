// The replay viewer: draws the frames Python computed from the record (no game rules here).
// Data: #replay-data holds the header facts, cell styles, the first board and per turn the changed cells,
// pieces (discs), marks (crosses), notes per seat, a status line and the moves played.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var frames = data.frames, last = frames.length - 1, W = data.width, H = data.height;
  var SPEEDS = [0.25, 0.5, 1, 2, 4, 8], TURNS_PER_SECOND = 5, KEYFRAME = 64;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var key in attrs || {}) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function colour(name) {
    var match = /^(seat|trail)(\d+)$/.exec(name);
    if (!match) return name;
    var list = data.colours[match[1]];
    return list[Number(match[2]) % list.length];
  }
  function seatColour(seat) { return seat < 0 ? "#777" : data.colours.seat[seat % data.colours.seat.length]; }

  // Boards at every KEYFRAME-th turn, so any turn is at most KEYFRAME-1 change lists away.
  var keyframes = [];
  (function () {
    var cells = data.cells.split("");
    for (var t = 0; t <= last; t++) {
      var changes = frames[t].changes;
      for (var i = 0; i < changes.length; i++) cells[changes[i][0]] = changes[i][1];
      if (t % KEYFRAME === 0) keyframes.push(cells.slice());
    }
  })();
  function boardAt(turn) {
    var base = Math.floor(turn / KEYFRAME), cells = keyframes[base].slice();
    for (var t = base * KEYFRAME + 1; t <= turn; t++) {
      var changes = frames[t].changes;
      for (var i = 0; i < changes.length; i++) cells[changes[i][0]] = changes[i][1];
    }
    return cells;
  }

  // The page.
  var root = document.getElementById("viewer");
  var title = data.game + (data.map !== "-" ? " on " + data.map : "");
  root.appendChild(el("h1", {}, title));
  root.appendChild(el("p", {"class": "meta"}, "seed " + data.seed + " · options: " + data.options + " · " +
    last + " turns"));
  var players = el("ul", {"class": "players"}), notes = [], moves = [];
  data.players.forEach(function (p) {
    var item = el("li", {"class": "player", "data-seat": p.seat});
    var swatch = el("span", {"class": "swatch"});
    swatch.style.background = seatColour(p.seat);
    item.appendChild(swatch);
    item.appendChild(el("b", {}, "player " + (p.seat + 1) + (p.role ? " (" + p.role + ")" : "") + ": "));
    item.appendChild(document.createTextNode(p.bot + " "));
    if (p.version) item.appendChild(el("span", {"class": "version"}, "v" + p.version.slice(0, 10) + " "));
    item.appendChild(el("span", {"class": "rank"}, "rank " + p.rank + " "));
    if (p.think !== null && p.think !== undefined) {
      item.appendChild(el("span", {"class": "think"}, "thought " + p.think.toFixed(3) + " s in all"));
    }
    var move = el("span", {"class": "move"}), note = el("span", {"class": "note"});
    item.appendChild(move); item.appendChild(note);
    moves[p.seat] = move; notes[p.seat] = note;
    players.appendChild(item);
  });
  root.appendChild(players);
  root.appendChild(el("p", {"class": "result"}, "Result: " + data.result));

  var controls = el("div", {"class": "controls"});
  function button(label, name, help) {
    var b = el("button", {type: "button", "data-action": name, title: help}, label);
    b.addEventListener("mousedown", function (event) { event.preventDefault(); });  // keep keys for the page
    controls.appendChild(b);
    return b;
  }
  var firstButton = button("|◀", "first", "first turn (Home)");
  var backButton = button("◀", "back", "one turn back (Left)");
  var playButton = button("Play", "play", "play or pause (Space)");
  var forwardButton = button("▶", "forward", "one turn forward (Right)");
  var lastButton = button("▶|", "last", "last turn (End)");
  var scrub = el("input", {type: "range", min: 0, max: last, value: 0, step: 1, "aria-label": "turn"});
  controls.appendChild(scrub);
  var turnText = el("span", {"class": "turn", id: "turn"});
  controls.appendChild(turnText);
  var speedButtons = SPEEDS.map(function (speed) {
    return button(speed + "x", "speed", "playback speed (+ and -)");
  });
  root.appendChild(controls);
  var status = el("p", {"class": "status", id: "status"});
  root.appendChild(status);
  var outcome = el("p", {"class": "outcome", id: "outcome"}, data.result +
    data.failures.map(function (f) { return " · player " + (f.seat + 1) + " " + f.kind + ": " + f.detail; })
      .join(""));
  outcome.hidden = true;
  root.appendChild(outcome);
  var canvas = el("canvas", {id: "board"});
  root.appendChild(canvas);
  // A board with named columns and rows (data.labels, e.g. chess) is drawn as named squares, each piece as its
  // label in its seat's ink (light for seat 0, dark for the others), the names along the edges.
  var squares = [], squareBoard = null;
  if (data.labels) {
    canvas.style.display = "none";
    squareBoard = el("div", {id: "squares", "class": "squares"});
    squareBoard.style.gridTemplateColumns = "1.4em repeat(" + W + ", var(--square))";
    for (var sy = 0; sy <= H; sy++) {
      for (var sx = -1; sx < W; sx++) {
        if (sy === H) { squareBoard.appendChild(el("span", {"class": "label"}, sx < 0 ? "" : data.labels[0][sx])); continue; }
        if (sx < 0) { squareBoard.appendChild(el("span", {"class": "label"}, data.labels[1][sy])); continue; }
        var square = el("div", {"class": "square", "data-square": data.labels[0][sx] + data.labels[1][sy]});
        squares.push(square);
        squareBoard.appendChild(square);
      }
    }
    root.appendChild(squareBoard);
  }
  // The move list: every turn's move in the game's notation (frames' move_text), each a link to its turn.
  var moveItems = [], moveList = null;
  if (frames.some(function (f) { return f.move_text; })) {
    moveList = el("ol", {"class": "movelist", id: "movelist"});
    frames.forEach(function (f, t) {
      if (!f.move_text) return;
      var item = el("li", {"data-turn": t}), link = el("a", {href: "#t=" + t}, f.move_text);
      item.appendChild(link);
      moveList.appendChild(item);
      moveItems[t] = item;
    });
    root.appendChild(moveList);
  }
  var legend = el("p", {"class": "legend"});
  var named = {};
  Object.keys(data.styles).forEach(function (char) {
    var style = data.styles[char];
    if (!style.name || named[style.name]) return;  // one entry a name (chess's last move on light and dark)
    named[style.name] = true;
    var item = el("span"), cell = el("span", {"class": "cell"}, style.symbol);
    cell.style.background = colour(style.fill);
    item.appendChild(cell);
    item.appendChild(document.createTextNode(style.name));
    legend.appendChild(item);
  });
  root.appendChild(legend);
  root.appendChild(el("p", {"class": "keys"},
    "Keys: Space play/pause · Left/Right one turn · Home/End first/last · + and - speed. " +
    "The address (#t=N) opens the page at turn N."));

  // Drawing.
  var ctx = canvas.getContext("2d"), cellSize = 10, turn = 0, playing = false, speedIndex = 2, timer = null;
  function layout() {
    var room = Math.max(window.innerWidth - 40, 100), tall = Math.max(window.innerHeight - 260, 120);
    cellSize = Math.max(3, Math.floor(Math.min(room / Math.max(W, 1), tall / Math.max(H, 1), 48)));
    var ratio = window.devicePixelRatio || 1;
    canvas.width = W * cellSize * ratio; canvas.height = H * cellSize * ratio;
    canvas.style.width = W * cellSize + "px"; canvas.style.height = H * cellSize + "px";
    canvas.dataset.cell = String(cellSize);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  }
  function drawSquares() {
    var cells = boardAt(turn), frame = frames[turn];
    squares.forEach(function (square, i) {
      var style = data.styles[cells[i]] || {fill: "#fff", symbol: ""};
      square.style.background = colour(style.fill);
      square.textContent = style.symbol || "";
      square.removeAttribute("data-piece");
    });
    frame.pieces.forEach(function (p) {
      var square = squares[p[1] * W + p[0]];
      square.textContent = "";
      square.appendChild(el("span", {"class": "piece seat" + Math.min(p[2], 1)}, p[3]));
      square.setAttribute("data-piece", (p[2] === 0 ? "w" : "b") + p[3]);
    });
  }
  function draw() {
    if (squareBoard) { drawSquares(); return; }
    var cells = boardAt(turn), frame = frames[turn], s = cellSize;
    ctx.clearRect(0, 0, W * s, H * s);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (var y = 0; y < H; y++) {
      for (var x = 0; x < W; x++) {
        var style = data.styles[cells[y * W + x]] || {fill: "#fff", symbol: cells[y * W + x]};
        ctx.fillStyle = colour(style.fill);
        ctx.fillRect(x * s, y * s, s, s);
        if (style.symbol && s >= 8) {
          ctx.fillStyle = "#fff"; ctx.font = "bold " + Math.floor(s * 0.7) + "px sans-serif";
          if (style.fill === "#eef0f4" || style.fill === "#f7f7f7") ctx.fillStyle = "#222";
          ctx.fillText(style.symbol, x * s + s / 2, y * s + s / 2 + 1);
        }
      }
    }
    if (s >= 6) {
      ctx.strokeStyle = "rgba(0,0,0,0.06)"; ctx.lineWidth = 1;
      for (var gx = 1; gx < W; gx++) { ctx.beginPath(); ctx.moveTo(gx * s, 0); ctx.lineTo(gx * s, H * s); ctx.stroke(); }
      for (var gy = 1; gy < H; gy++) { ctx.beginPath(); ctx.moveTo(0, gy * s); ctx.lineTo(W * s, gy * s); ctx.stroke(); }
    }
    frame.pieces.forEach(function (p) {
      var cx = p[0] * s + s / 2, cy = p[1] * s + s / 2;
      ctx.fillStyle = seatColour(p[2]);
      ctx.beginPath(); ctx.arc(cx, cy, s * 0.45, 0, 2 * Math.PI); ctx.fill();
      if (p[3] && s >= 10) {
        ctx.fillStyle = "#fff"; ctx.font = "bold " + Math.floor(s * 0.6) + "px sans-serif";
        ctx.fillText(p[3], cx, cy + 1);
      }
    });
    frame.marks.forEach(function (m) {
      var x0 = m[0] * s, y0 = m[1] * s, pad = s * 0.1;
      ctx.strokeStyle = "#000"; ctx.lineWidth = Math.max(2, s * 0.22);
      cross(x0, y0, pad);
      ctx.strokeStyle = seatColour(m[2]); ctx.lineWidth = Math.max(1, s * 0.12);
      cross(x0, y0, pad);
    });
    function cross(x0, y0, pad) {
      ctx.beginPath(); ctx.moveTo(x0 + pad, y0 + pad); ctx.lineTo(x0 + s - pad, y0 + s - pad);
      ctx.moveTo(x0 + s - pad, y0 + pad); ctx.lineTo(x0 + pad, y0 + s - pad); ctx.stroke();
    }
  }
  function show() {
    var frame = frames[turn];
    draw();
    turnText.textContent = "turn " + turn + " / " + last;
    scrub.value = String(turn);
    status.textContent = frame.status || "";
    data.players.forEach(function (p) {
      notes[p.seat].textContent = frame.notes[String(p.seat)] || "";
      var move = frame.moves[String(p.seat)];
      moves[p.seat].textContent = move === undefined ? "" : JSON.stringify(move);
    });
    outcome.hidden = turn !== last;
    moveItems.forEach(function (item, t) { item.classList.toggle("current", t === turn); });
    document.body.dataset.turn = String(turn);
    var address = "#t=" + turn;
    if (location.hash !== address) {
      try { history.replaceState(null, "", address); } catch (error) { /* some file:// pages refuse it */ }
    }
  }
  function go(target) {
    turn = Math.max(0, Math.min(last, target));
    show();
  }
  function setPlaying(on) {
    playing = on && last > 0;
    playButton.textContent = playing ? "Pause" : "Play";
    playButton.classList.toggle("active", playing);
    document.body.dataset.playing = String(playing);
    clearTimeout(timer);
    if (playing) {
      if (turn === last) go(0);
      tick();
    }
  }
  function tick() {
    timer = setTimeout(function () {
      if (!playing) return;
      go(turn + 1);
      if (turn >= last) setPlaying(false); else tick();
    }, 1000 / (TURNS_PER_SECOND * SPEEDS[speedIndex]));
  }
  function setSpeed(index) {
    speedIndex = Math.max(0, Math.min(SPEEDS.length - 1, index));
    speedButtons.forEach(function (b, i) { b.classList.toggle("active", i === speedIndex); });
    document.body.dataset.speed = String(SPEEDS[speedIndex]);
    if (playing) { clearTimeout(timer); tick(); }
  }
  function fromAddress() {
    var match = /^#t=(\d+)$/.exec(location.hash);
    return match ? Number(match[1]) : null;
  }

  firstButton.onclick = function () { setPlaying(false); go(0); };
  backButton.onclick = function () { setPlaying(false); go(turn - 1); };
  forwardButton.onclick = function () { setPlaying(false); go(turn + 1); };
  lastButton.onclick = function () { setPlaying(false); go(last); };
  playButton.onclick = function () { setPlaying(!playing); };
  speedButtons.forEach(function (b, i) { b.onclick = function () { setSpeed(i); }; });
  scrub.oninput = function () { setPlaying(false); go(Number(scrub.value)); };
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var handled = true;
    switch (event.key) {
      case " ": setPlaying(!playing); break;
      case "ArrowRight": setPlaying(false); go(turn + 1); break;
      case "ArrowLeft": setPlaying(false); go(turn - 1); break;
      case "Home": setPlaying(false); go(0); break;
      case "End": setPlaying(false); go(last); break;
      case "+": case "=": setSpeed(speedIndex + 1); break;
      case "-": case "_": setSpeed(speedIndex - 1); break;
      default: handled = false;
    }
    if (handled) event.preventDefault();
  });
  window.addEventListener("hashchange", function () {
    var target = fromAddress();
    if (target !== null && target !== turn) { setPlaying(false); go(target); }
  });
  window.addEventListener("resize", function () { layout(); draw(); });

  layout();
  setSpeed(2);
  setPlaying(false);
  var start = fromAddress();
  go(start === null ? 0 : start);
})();
