/* OTB Arbiter's page: the arbiter's view (/), the players' clock face (/clock) and the
 * teaching view (/teach) of one live game.
 *
 * The server sends the contract's rulings as JSON, each with its sentence made by the one
 * formatter (rules.messages); this script never makes a ruling or a ruling's sentence. It
 * keeps the game's state from the event stream (/events: `state`, then `rulings`, `board`,
 * `now`), runs the clocks between two readings of the server, and draws the views.
 * Every string of the page's own is in STRINGS, in English; at start the server's
 * /api/strings gives them in the page's language (its menu's choice, kept in localStorage,
 * else the browser's, else the game's) and `translate` puts them in place. A ruling carries
 * its sentence in every language (`messages`); `sentence` picks the page's.
 * The pure functions at the top are tested in a browser (tests/web/test_page_script.py).
 */
"use strict";

const STRINGS = {
  title: "OTB Arbiter",
  noTime: "–:––",
  article: "Art. {article}",
  player: "{side}: {name}",
  strictMode: "strict (teaching)",
  piece: "piece",
  connecting: "connecting…",
  live: "live",
  lost: "connection lost: reconnecting…",
  position: "The game's position",
  positionAt: "The position after {move} (history)",
  positionStart: "The start position (history)",
  backToLive: "back to the live position",
  sensed: "The board as sensed",
  sensedDiffers: "The board as sensed differs from the game: put back what is marked (green: a piece missing, red: a piece that should not be there)",
  sensedMoving: "The board as sensed (a move in progress)",
  clocks: "Clocks",
  moves: "Moves",
  rulings: "Rulings",
  noRulings: "No ruling yet.",
  noMoves: "No move yet.",
  result: "Result: {result}",
  paused: "paused",
  noClock: "no clock",
  downloads: "Downloads",
  pgn: "PGN",
  journal: "journal",
  controls: "Arbiter's controls",
  readOnly: "Read-only: open the arbiter's address with the token (printed at start) to act.",
  pause: "Pause the clocks",
  resume: "Resume the clocks",
  addTime: "Add time",
  seconds: "seconds",
  setClocks: "Set the clocks",
  white: "White",
  black: "Black",
  claim: "{side}'s claim ({kind}) was ruled incorrect; you may overrule:",
  uphold: "Uphold the claim",
  claimUpheld: "{side}'s claim ({kind}) was upheld; you may overrule:",
  reject: "Reject the claim",
  confirm: "Confirm the ruling",
  declare: "Declare the result",
  reason: "reason",
  takeback: "Take back",
  plies: "plies",
  reinstate: "Reinstate this position",
  sent: "sent: {what}",
  refusedBy: "refused: {error}",
  viewArbiter: "arbiter",
  viewClock: "clock",
  viewTeach: "teaching",
  fullScreen: "full screen",
  swapSides: "swap sides",
  flag: "⚑",
  pausedMark: "‖",
  increment: "+{s}",
  delay: "delay {s}",
  bronstein: "Bronstein {s}",
  bronsteinMark: "↺{s}",
  periodMark: "P{n}",
  toControlMark: "▸{m}",
  periodTitle: "period {n}: {moves} moves to the time control",
  tapHint: "tap your side to press your clock",
  teachTitle: "Teaching view",
  teachNoDuty: "{side} to move: any legal move.",
  teachOver: "The game is over: {result}.",
  teachDuty: {
    move_piece: {
      p: "{side}, you touched the pawn on {square}: you must move it.",
      n: "{side}, you touched the knight on {square}: you must move it.",
      b: "{side}, you touched the bishop on {square}: you must move it.",
      r: "{side}, you touched the rook on {square}: you must move it.",
      q: "{side}, you touched the queen on {square}: you must move it.",
      k: "{side}, you touched the king on {square}: you must move it.",
    },
    capture_piece: {
      p: "{side}, you touched the opponent's pawn on {square}: you must capture it.",
      n: "{side}, you touched the opponent's knight on {square}: you must capture it.",
      b: "{side}, you touched the opponent's bishop on {square}: you must capture it.",
      r: "{side}, you touched the opponent's rook on {square}: you must capture it.",
      q: "{side}, you touched the opponent's queen on {square}: you must capture it.",
      k: "{side}, you touched the opponent's king on {square}: you must capture it.",
    },
    castle: "{side}, you touched king and rook: you must castle.",
    king_move: "{side}, you touched the king: you must move it.",
    declared_move: "{side}, you must play the move you declared.",
  },
  teachTargets: "It may go to: {squares}.",
  teachCapturers: "It may be captured from: {squares}.",
  teachRefused: "Refused: {why}",
  pieceNames: { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" },
  sideNames: { white: "White", black: "Black" },
  reasons: {
    arbiter_decision: "arbiter's decision", agreement: "agreement", resignation: "resignation",
    time: "time", checkmate: "checkmate", stalemate: "stalemate",
    threefold_repetition: "threefold repetition", fifty_moves: "fifty moves",
    dead_position: "dead position", illegal_moves: "illegal moves",
  },
  language: "Language",
};

/* ------------------------------------------------------------------ pure functions */

/** `text` with `{name}` filled from `fields`. */
function fill(text, fields) {
  return String(text).replace(/\{(\w+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
}

/** `strings` (the server's translation of STRINGS) written over `into`, key by key. */
function translate(into, strings) {
  for (const [key, value] of Object.entries(strings || {})) {
    if (value && typeof value === "object" && into[key] && typeof into[key] === "object") {
      translate(into[key], value);
    } else if (typeof value === "string" && typeof into[key] === "string") {
      into[key] = value;
    }
  }
  return into;
}

/** The sentence of a ruling (or a duty) in `language`: English is the contract's `message`. */
function sentence(r, language) {
  if (!r) return "";
  const own = language && language !== "en" && r.messages ? r.messages[language] : null;
  return own || r.message || "";
}

/**
 * The decimal separator of each language the server said (`/api/strings`: `decimal`, as its
 * formatter of the rulings writes numbers, `rules.i18n.number`): a browser's own data is not
 * enough, as the ICU data Chromium ships writes Bosnian numbers with a point and has no
 * Macedonian.
 */
const DECIMAL = { en: ".", sr: ",", sr_Cyrl: ",", bs: ",", mk: ",", cs: ",", pl: "," };

/** The decimal separator of `language`: the server's, else the browser's (`Intl`). */
function decimalSeparator(language) {
  const code = String(language || "en");
  if (DECIMAL[code]) return DECIMAL[code];
  try {
    const parts = new Intl.NumberFormat(code.replace("_", "-")).formatToParts(1.5);
    const found = parts.find((p) => p.type === "decimal");
    return found ? found.value : ".";
  } catch (e) {
    return ".";
  }
}

/** `value` as a reader of `language` writes it: `2,5` in sr, bs, mk, cs and pl, `2.5` in
 * English; no digit grouping, at most three decimals (a clock's seconds, an increment). */
function fmtNumber(value, language) {
  return String(Math.round(Number(value) * 1000) / 1000).replace(".", decimalSeparator(language));
}

/**
 * Seconds as a clock shows them: h:mm:ss from an hour, m:ss, and tenths under 10 s, with the
 * decimal separator of `language` (`0:09.8`, `0:09,8`; English when none is given).
 */
function fmtClock(seconds, language) {
  if (seconds === null || seconds === undefined || !isFinite(seconds)) return STRINGS.noTime;
  let s = Math.max(0, seconds);
  if (s < 10) {
    const tenths = Math.floor(s * 10 + 1e-6);
    return `0:0${Math.floor(tenths / 10)}${decimalSeparator(language)}${tenths % 10}`;
  }
  s = Math.floor(s + 1e-6);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = h > 0 ? String(m).padStart(2, "0") : String(m);
  return (h > 0 ? `${h}:` : "") + `${mm}:${String(r).padStart(2, "0")}`;
}

/** "m:ss" or "h:mm:ss" or seconds, as an arbiter types a clock setting; NaN if unreadable. */
function parseClock(text) {
  const parts = String(text).trim().split(":");
  if (parts.length > 3 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) return NaN;
  return parts.reduce((acc, p) => acc * 60 + Number(p), 0);
}

/** The stream time now, from the last `now` the server sent and the speed of the stream. */
function streamNow(sync, perfNow, speed) {
  return sync.t + ((perfNow - sync.at) / 1000) * speed;
}

/**
 * The clocks at stream time `t`, from the last `clock` ruling: the running side's time goes
 * down (after a US delay, which starts at `moveStart`), an hourglass's other side's goes up.
 */
function clockReading(clock, t, info, moveStart) {
  if (!clock) return null;
  const out = { white: clock.white, black: clock.black };
  const side = clock.running;
  if (!side || clock.paused) return out;
  let from = clock.t;
  if (info && info.delay > 0 && moveStart !== undefined && moveStart !== null) {
    from = Math.max(from, moveStart + info.delay);
  }
  const used = Math.max(0, t - from);
  const other = side === "white" ? "black" : "white";
  out[side] = Math.max(0, out[side] - used);
  if (info && info.hourglass) out[other] = out[other] + Math.min(used, clock[side]);
  return out;
}

/**
 * The period a player is in after `made` completed moves (FIDE 6.3.1, as the rules'
 * `TimeControl.period_of_move` reads the control): {n} (1, 2, ...), its `period`, and
 * `toControl`, the moves still to make in it (null in a period for the rest of the game).
 * A last period with a move count repeats. `periods`: [{seconds, moves, increment, delay,
 * bronstein}] of the game's info.
 */
function periodOf(periods, made) {
  if (!periods || !periods.length) return null;
  let left = made;
  for (let i = 0; i < periods.length; i += 1) {
    const period = periods[i];
    if (period.moves === null || period.moves === undefined) return { n: i + 1, period, toControl: null };
    if (left < period.moves) return { n: i + 1, period, toControl: period.moves - left };
    if (i < periods.length - 1) left -= period.moves;
  }
  const last = periods[periods.length - 1];
  const into = left % last.moves;
  return { n: periods.length, period: last, toControl: last.moves - into };
}

/** The moves each player has completed, from the moves that stand. */
function movesMade(rulings) {
  const made = { white: 0, black: 0 };
  for (const m of movesOf(rulings)) made[m.side] += 1;
  return made;
}

/**
 * The simple (US) delay still to run on the running side's move (6.3.2: its main time runs
 * only after it), or null when none applies: no delay, not its turn, the clocks paused or
 * stopped. `moveStart` is when the running side's clock started.
 */
function delayLeft(delay, clock, side, t, moveStart) {
  if (!delay || !clock || clock.running !== side || clock.paused) return null;
  if (moveStart === null || moveStart === undefined) return null;
  return Math.max(0, delay - Math.max(0, t - moveStart));
}

/**
 * The symbols beside one side's time on the clock face, as a DGT 3000 shows its icons (see
 * docs/web.md): the period and the moves to its control in a multi-period control, the
 * Fischer increment `+s`, a simple delay (an hourglass drawn by the style sheet, and its
 * seconds) counting down while it applies on the running side (`counting`), a Bronstein
 * delay `↺s`. Each is {kind, text, title?, counting?}.
 */
function faceMarks(periods, made, delay, language) {
  const at = periodOf(periods, made);
  if (!at) return [];
  const marks = [];
  if (periods.length > 1 || at.toControl !== null) {
    const title = at.toControl === null ? null
      : fill(STRINGS.periodTitle, { n: at.n, moves: at.toControl });
    marks.push({ kind: "period", text: fill(STRINGS.periodMark, { n: at.n }), title });
    if (at.toControl !== null) {
      marks.push({ kind: "moves", text: fill(STRINGS.toControlMark, { m: at.toControl }), title });
    }
  }
  const p = at.period;
  const n = (value) => fmtNumber(value, language);
  if (p.increment > 0) marks.push({ kind: "increment", text: fill(STRINGS.increment, { s: n(p.increment) }) });
  if (p.delay > 0) {
    const shown = delay === null ? p.delay : Math.ceil(delay);
    marks.push({ kind: "delay", text: n(shown),
      title: fill(STRINGS.delay, { s: n(p.delay) }), counting: delay !== null && delay > 0 });
  }
  if (p.bronstein > 0) {
    marks.push({ kind: "bronstein", text: fill(STRINGS.bronsteinMark, { s: n(p.bronstein) }),
      title: fill(STRINGS.bronstein, { s: n(p.bronstein) }) });
  }
  return marks;
}

/**
 * The moves that stand, from the rulings: [{ply, san, uci, fen, side, clk}]; a
 * reinstatement drops the moves beyond its `ply`; `clk` is the mover's clock after the
 * press that completed the move (the PGN's %clk).
 */
function movesOf(rulings) {
  let moves = [];
  let waiting = null;
  let atClaim = [];  // the moves when the last claim was ruled
  for (const r of rulings) {
    if (r.type === "claim") {
      atClaim = moves.slice();
    } else if (r.type === "arbiter_action" && (r.action === "reject_claim" || r.action === "uphold_claim")) {
      moves = atClaim.slice();  // the arbiter overruled the claim: the game as at the claim
      waiting = null;
    } else if (r.type === "move") {
      moves.length = Math.min(moves.length, r.ply - 1);
      waiting = { ply: r.ply, san: r.san, uci: r.uci, fen: r.fen, side: r.side, clk: null, t: r.t };
      moves.push(waiting);
    } else if (r.type === "reinstate") {
      moves.length = Math.min(moves.length, r.ply);
      waiting = null;
    } else if (r.type === "clock" && waiting && r.t >= waiting.t) {
      const mover = waiting.side || (waiting.ply % 2 === 1 ? "white" : "black");
      waiting.clk = r[mover];
      waiting = null;
    }
  }
  return moves;
}

/** The FEN at `ply` plies (0: the base position: the start's, or the last reinstated to 0). */
function positionAt(rulings, ply, startFen) {
  const moves = movesOf(rulings);
  if (ply > 0 && ply <= moves.length) return moves[ply - 1].fen;
  let base = startFen;
  for (const r of rulings) if (r.type === "reinstate" && r.ply === 0) base = r.fen;
  return base;
}

/** A FEN's placement as 64 letters indexed by square (a1 = 0, h8 = 63), "" when empty. */
function placement(fen) {
  const out = new Array(64).fill("");
  const rows = String(fen).split(" ")[0].split("/");
  for (let i = 0; i < 8 && i < rows.length; i++) {
    let file = 0;
    for (const ch of rows[i]) {
      if (/\d/.test(ch)) file += Number(ch);
      else { out[(7 - i) * 8 + file] = ch; file += 1; }
    }
  }
  return out;
}

const FILES = "abcdefgh";
function squareName(index) { return FILES[index % 8] + String(Math.floor(index / 8) + 1); }
function squareIndex(name) { return FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1); }

/** Where the sensed board differs from the position: {square: "missing"|"extra"}. */
function differences(sensed, position, squares) {
  const marks = {};
  for (const name of squares) {
    const i = squareIndex(name);
    marks[name] = position[i] && sensed[i] !== position[i] ? "missing" : "extra";
  }
  return marks;
}

/** The teaching view's sentence for a duty, with the piece's name from the position. */
function teachText(duty, position) {
  const side = STRINGS.sideNames[duty.side] || duty.side;
  const letter = duty.square ? position[squareIndex(duty.square)] : "";
  const piece = STRINGS.pieceNames[String(letter).toLowerCase()] || STRINGS.piece;
  const kind = STRINGS.teachDuty[duty.kind];
  // a duty on one piece has a sentence per piece (its case and pronoun change with it)
  const template = kind && typeof kind === "object" ? kind[String(letter).toLowerCase()] : kind;
  const first = template ? fill(template, { side, piece, square: duty.square || "" })
    : sentence(duty, page.language);
  if (!duty.targets || !duty.targets.length) return first;
  const more = duty.kind === "capture_piece" ? STRINGS.teachCapturers : STRINGS.teachTargets;
  return `${first} ${fill(more, { squares: duty.targets.join(", ") })}`;
}

/** The index in `shown` of the last `claim` ruling (the one the arbiter may overrule). */
function lastClaimIndex(shown) {
  for (let i = shown.length - 1; i >= 0; i -= 1) if (shown[i].type === "claim") return i;
  return -1;
}

/**
 * The arbiter's choices on the claim he may still overrule (`verdict` of the board view:
 * {side, kind, valid}, sent by the server while nothing has happened since the claim), as
 * [{id, valid, label}] of the `claim_verdict` action: the other verdict, and the same one,
 * which confirms the ruling. The rules core carries a verdict out (9.5.3 for a rejected
 * draw claim, the move standing for a rejected 4.8 claim, a draw or the move taken back for
 * one upheld); the page only asks for it.
 */
function verdictChoices(verdict) {
  if (!verdict) return [];
  const other = verdict.valid
    ? { id: "claim-reject", valid: false, label: "reject" }
    : { id: "claim-uphold", valid: true, label: "uphold" };
  return [other, { id: "claim-confirm", valid: verdict.valid, label: "confirm" }];
}

/** The last `mismatch` ruling not yet followed by a move: the board must be put right. */
function openMismatch(rulings) {
  let mismatch = null;
  for (const r of rulings) {
    if (r.type === "mismatch") mismatch = r;
    else if (r.type === "move") mismatch = null;
  }
  return mismatch;
}

/** The lesson for a child under a refusal (strict mode), in `language`: made by the server
 * in every language (`lessons`), English when the page's language has none. */
function lessonText(r, language) {
  if (!r || !r.lessons) return "";
  return r.lessons[language] || r.lessons.en || "";
}

/** What the teaching view says was refused (strict mode), until the next move. */
function lastRefusal(rulings) {
  let refusal = null, violation = null;
  for (const r of rulings) {
    if (r.type === "violation") violation = r;
    else if (r.type === "illegal" && !r.completed) refusal = r;
    else if (r.type === "reinstate" && r.reason === "strict") refusal = violation || r;
    else if (r.type === "move") { refusal = null; violation = null; }
  }
  return refusal;
}

/* ------------------------------------------------------------------ the page's state */

const page = {
  view: location.pathname.replace(/\/+$/, "").split("/").pop() || "arbiter",
  info: null,
  rulings: [],
  board: null,
  clock: null,
  moveStart: null,
  flags: {},
  sync: { t: 0, at: performance.now() },
  connected: false,
  viewPly: null,
  token: null,
  feedback: { text: "", ok: true },
  leftSide: "white",
  edited: new Set(),
  language: "en",
};

function takeToken() {
  const params = new URLSearchParams(location.search);
  const given = params.get("token");
  if (given) {
    sessionStorage.setItem("arbiterToken", given);
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : ""));
  }
  page.token = sessionStorage.getItem("arbiterToken");
  if (params.get("left") === "black") page.leftSide = "black";
}

function absorb(rulings) {
  for (const r of rulings) {
    page.rulings.push(r);
    if (r.type === "clock") {
      const before = page.clock ? page.clock.running : undefined;
      if (r.running !== before) page.moveStart = r.t;
      page.clock = r;
    } else if (r.type === "flag") {
      page.flags[r.side] = true;
    }
  }
}

function onState(data) {
  page.info = data.info;
  page.rulings = [];
  page.clock = null;
  page.flags = {};
  page.clock = data.info.clock;  // until the first `clock` ruling: the clocks at the start
  page.moveStart = page.clock ? page.clock.t : null;
  absorb(data.rulings);
  page.board = data.board;
  page.sync = { t: data.now, at: performance.now() };
  render();
}

function onRulings(data) {
  absorb(data.rulings);
  page.board = data.board;
  page.sync = { t: data.now, at: performance.now() };
  render();
}

function connect() {
  const source = new EventSource("/events");
  source.addEventListener("state", (e) => { page.connected = true; onState(JSON.parse(e.data)); });
  source.addEventListener("rulings", (e) => onRulings(JSON.parse(e.data)));
  source.addEventListener("board", (e) => {
    const data = JSON.parse(e.data);
    page.board = data.board;
    page.sync = { t: data.now, at: performance.now() };
    render();
  });
  source.addEventListener("now", (e) => {
    page.sync = { t: JSON.parse(e.data).t, at: performance.now() };
  });
  source.onerror = () => { page.connected = false; renderStatus(); };
  source.onopen = () => { page.connected = true; renderStatus(); };
}

async function send(path, body, what) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Arbiter-Token": page.token || "" },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({}));
    const error = (data.errors && data.errors[page.language]) || data.error || response.status;
    page.feedback = response.ok
      ? { text: fill(STRINGS.sent, { what }), ok: true }
      : { text: fill(STRINGS.refusedBy, { error }), ok: false };
  } catch (err) {
    page.feedback = { text: fill(STRINGS.refusedBy, { error: String(err) }), ok: false };
  }
  renderFeedback();
}

function control(action, fields, what) {
  page.edited.clear();
  return send("/api/control", { action, ...fields }, what || action);
}

/* ------------------------------------------------------------------ drawing */

const GLYPHS = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟", x: "●", "?": "?" };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function boardNode(letters, marks, label) {
  const grid = el("div", { class: "board", role: "img", "aria-label": label });
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 8; file++) {
      const index = rank * 8 + file;
      const name = squareName(index);
      const letter = letters[index] || "";
      const classes = ["sq", (rank + file) % 2 === 0 ? "d" : "l"].concat(marks[name] || []);
      const square = el("div", { class: classes.join(" "), "data-square": name, "data-piece": letter });
      if (letter) {
        const white = letter === letter.toUpperCase() && letter !== "?";
        const glyph = letter === "X" ? "○" : GLYPHS[letter.toLowerCase()] || "?";
        square.append(el("span", { class: `pc ${white ? "w" : "b"}` }, glyph));
      }
      // drawn outside the board, beside the a-file and under the first rank: never on a piece
      if (file === 0) square.append(el("span", { class: "coord rank" }, String(rank + 1)));
      if (rank === 0) square.append(el("span", { class: "coord file" }, FILES[file]));
      grid.append(square);
    }
  }
  return grid;
}

function readingNow() {
  if (!page.info) return null;
  const t = streamNow(page.sync, performance.now(), page.info.speed || 1);
  return clockReading(page.clock, t, { ...page.info, delay: runningDelay() }, page.moveStart);
}

/** The simple delay of the running side's current period (0: none). */
function runningDelay() {
  const side = page.clock && page.clock.running;
  const at = side ? periodOf(page.info.periods, movesMade(page.rulings)[side]) : null;
  return at ? at.period.delay : page.info.delay || 0;
}

/** The clock face's symbols of `side` now (`faceMarks`). */
function sideMarks(side) {
  const info = page.info;
  const periods = info.periods && info.periods.length ? info.periods
    : [{ seconds: 0, moves: null, increment: info.increment, delay: info.delay, bronstein: info.bronstein }];
  const made = movesMade(page.rulings)[side];
  const at = periodOf(periods, made);
  const t = streamNow(page.sync, performance.now(), info.speed || 1);
  const delay = at ? delayLeft(at.period.delay, page.clock, side, t, page.moveStart) : null;
  return faceMarks(periods, made, delay, page.language);
}

function marksNode(side) {
  return sideMarks(side).map((m) => el("span",
    { class: `mark mark-${m.kind}${m.counting ? " counting" : ""}`, title: m.title || null }, m.text));
}

function clocksNode() {
  const info = page.info;
  if (!info.timed) return el("div", { class: "note" }, STRINGS.noClock);
  const reading = readingNow();
  const box = el("div", { class: "clocks" });
  for (const side of ["white", "black"]) {
    const running = page.clock && page.clock.running === side && !page.clock.paused;
    const classes = ["clock", running ? "running" : "", page.flags[side] ? "flagged" : ""];
    box.append(el("div", { class: classes.join(" "), "data-side": side },
      el("div", { class: "name" }, fill(STRINGS.player, { side: STRINGS.sideNames[side], name: info[side] }),
        page.flags[side] ? ` ${STRINGS.flag}` : ""),
      el("div", { class: "time", "data-clock": side }, reading ? fmtClock(reading[side], page.language) : STRINGS.noTime)));
  }
  if (page.clock && page.clock.paused) box.append(el("div", { class: "note" }, STRINGS.paused));
  return box;
}

function movesNode() {
  const moves = movesOf(page.rulings);
  if (!moves.length) return el("div", { class: "note" }, STRINGS.noMoves);
  const box = el("div", { class: "moves" });
  let pair = null;  // a move's number, White's move and Black's: one piece of the line
  for (const m of moves) {
    if (m.ply % 2 === 1 || !pair) box.append(pair = el("span", { class: "pair" }));
    if (m.ply % 2 === 1) pair.append(el("span", { class: "no" }, `${(m.ply + 1) / 2}.`));
    const viewing = page.viewPly === m.ply;
    pair.append(el("button", {
      class: viewing ? "viewing" : "", "data-ply": m.ply, title: m.uci,
      onclick: () => { page.viewPly = m.ply; render(); },
    }, m.san, m.clk !== null ? el("span", { class: "clk" }, ` ${fmtClock(m.clk, page.language)}`) : null));
  }
  return box;
}

/** The rulings that change the clocks otherwise than a press does (their time added or
 * taken, the clocks set or stopped): the clock reading that comes with them says by how much. */
const CLOCK_NEWS = new Set(["arbiter_action", "penalty", "flag", "illegal", "reinstate", "game_over"]);

/**
 * The rulings the log shows: a `clock` reading only where it tells the arbiter something: at
 * the time of a ruling of CLOCK_NEWS (an arbiter's action, a penalty, a flag, an illegal
 * move, the end), or where the clocks were paused, resumed or stopped. The reading of each
 * routine press is left out (the moves' list shows it as the move's %clk), whether the move
 * was ruled at the press or before it.
 */
function logged(rulings) {
  const news = new Set(rulings.filter((r) => CLOCK_NEWS.has(r.type)).map((r) => r.t));
  let last = null;  // the clock reading before
  return rulings.filter((r) => {
    if (r.type !== "clock") return true;
    const turned = last !== null && (Boolean(r.paused) !== Boolean(last.paused) || !r.running !== !last.running);
    last = r;
    return news.has(r.t) || turned;
  });
}

/** A ruling's sentence without its citation of `article` ("(Art. 4.3.1)", "(čl. 4.3.1)";
 * "(taknuto-maknuto, čl. 4.3.1)" keeps its words), for the log, which shows the article as
 * a label beside it; unchanged when the sentence cites it otherwise. */
function withoutArticle(text, article) {
  if (!article) return text;
  const quoted = String(article).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const cited = new RegExp(`\\s*\\((?:([^()]*?),\\s*)?(?:[^()\\s,]+\\s+)?${quoted}\\)`);
  return text.replace(cited, (all, words) => (words ? ` (${words})` : ""));
}

function rulingsNode() {
  const shown = logged(page.rulings);
  if (!shown.length) return el("div", { class: "note" }, STRINGS.noRulings);
  const list = el("ol", { class: "rulings", reversed: "" });
  const verdict = page.token && page.board ? page.board.verdict : null;
  const claimAt = verdict ? lastClaimIndex(shown) : -1;
  shown.forEach((r, i) => {
    list.prepend(el("li", { class: `r-${r.type}`, "data-type": r.type, "data-n": r.n },
      el("span", { class: "t" }, fmtClock(r.t, page.language)),
      r.article ? el("span", { class: "art" }, fill(STRINGS.article, { article: r.article })) : null,
      withoutArticle(sentence(r, page.language), r.article) || r.type,
      i === claimAt ? verdictNode(verdict) : null));
  });
  return list;
}

/** Beside the claim's ruling, behind the token: the arbiter's verdict on it. */
function verdictNode(verdict) {
  const words = fill(verdict.valid ? STRINGS.claimUpheld : STRINGS.claim,
    { side: STRINGS.sideNames[verdict.side], kind: verdict.kind });
  return el("div", { class: "row verdict", id: "claim" }, words,
    verdictChoices(verdict).map((c) => el("button", { id: c.id,
      onclick: () => control("claim_verdict", { valid: c.valid }, STRINGS[c.label]) },
    STRINGS[c.label])));
}

function positionBoxes() {
  const board = page.board;
  const live = page.viewPly === null;
  const fen = live ? board.fen : positionAt(page.rulings, page.viewPly, page.info.fen);
  const position = placement(fen);
  const diff = live ? board.diff : [];
  const mismatch = diff.length ? openMismatch(page.rulings) : null;
  const marks = {};
  const sensedMarks = {};
  if (mismatch) {
    for (const [square, kind] of Object.entries(differences(board.sensed, position, diff))) {
      (kind === "missing" ? marks : sensedMarks)[square] = [kind];
      if (kind === "missing") sensedMarks[square] = [kind];
    }
  }
  const moves = movesOf(page.rulings);
  const shownPly = live ? moves.length : page.viewPly;
  const last = shownPly > 0 ? moves[shownPly - 1] : null;
  if (last) for (const sq of [last.uci.slice(0, 2), last.uci.slice(2, 4)]) {
    marks[sq] = (marks[sq] || []).concat("lastmove");
  }
  let caption = STRINGS.position;
  if (!live) {
    caption = page.viewPly === 0 ? STRINGS.positionStart
      : fill(STRINGS.positionAt, { move: `${Math.ceil(page.viewPly / 2)}${page.viewPly % 2 ? "." : "…"} ${last.san}` });
  }
  const boxes = el("div", { class: "boards" },
    el("div", { class: "boardbox", id: "position" },
      el("div", { class: "caption" }, caption,
        live ? null : el("button", { class: "history", onclick: () => { page.viewPly = null; render(); } },
          STRINGS.backToLive)),
      boardNode(position, marks, caption)));
  if (live && diff.length) {
    boxes.append(el("div", { class: "boardbox", id: "sensed" },
      el("div", { class: "caption" }, mismatch ? STRINGS.sensedDiffers : STRINGS.sensedMoving),
      boardNode(board.sensed, sensedMarks, STRINGS.sensed)));
  }
  if (mismatch) boxes.append(el("div", { class: "note", id: "mismatch" }, sentence(mismatch, page.language)));
  return boxes;
}

function controlsNode() {
  if (!page.token) return el("div", { class: "panel" }, el("h2", {}, STRINGS.controls),
    el("div", { class: "note", id: "readonly" }, STRINGS.readOnly));
  const info = page.info;
  const reading = readingNow() || { white: 0, black: 0 };
  const paused = page.clock && page.clock.paused;
  const addSide = el("select", { id: "add-side" },
    el("option", { value: "white" }, STRINGS.white), el("option", { value: "black" }, STRINGS.black));
  const addSeconds = el("input", { id: "add-seconds", type: "number", min: "1", value: "60" });
  const setWhite = el("input", { id: "set-white", class: "time", value: fmtClock(reading.white).split(".")[0] });
  const setBlack = el("input", { id: "set-black", class: "time", value: fmtClock(reading.black).split(".")[0] });
  const result = el("select", { id: "declare-result" },
    ["1-0", "0-1", "1/2-1/2"].map((r) => el("option", { value: r }, r)));
  const reason = el("select", { id: "declare-reason" },
    Object.entries(STRINGS.reasons).map(([k, v]) => el("option", { value: k }, v)));
  const plies = el("input", { id: "takeback-plies", type: "number", min: "1", value: "1" });
  const viewed = page.viewPly === null ? page.board.fen : positionAt(page.rulings, page.viewPly, info.fen);
  const fen = el("input", { id: "reinstate-fen", class: "fen", value: viewed });
  const rows = [
    el("div", { class: "row" },
      el("button", { id: "pause", onclick: () => control(paused ? "resume" : "pause") },
        paused ? STRINGS.resume : STRINGS.pause)),
    el("div", { class: "row" }, addSide, addSeconds, STRINGS.seconds,
      el("button", { id: "add-time", onclick: () => control("add_time",
        { side: addSide.value, seconds: Number(addSeconds.value) }, STRINGS.addTime) }, STRINGS.addTime)),
    el("div", { class: "row" }, `${STRINGS.white}`, setWhite, `${STRINGS.black}`, setBlack,
      el("button", { id: "set-clock", onclick: () => control("set_clock",
        { white: parseClock(setWhite.value), black: parseClock(setBlack.value) }, STRINGS.setClocks) },
      STRINGS.setClocks)),
  ];
  rows.push(el("div", { class: "row" }, result, reason,
    el("button", { id: "declare", onclick: () => control("declare",
      { result: result.value, reason: reason.value }, STRINGS.declare) }, STRINGS.declare)));
  rows.push(el("div", { class: "row" }, plies, STRINGS.plies,
    el("button", { id: "takeback", onclick: () => control("takeback",
      { plies: Number(plies.value) }, STRINGS.takeback) }, STRINGS.takeback)));
  rows.push(el("div", { class: "row" }, fen,
    el("button", { id: "reinstate", onclick: () => control("set_position",
      { fen: fen.value }, STRINGS.reinstate) }, STRINGS.reinstate)));
  rows.push(el("div", { class: `feedback ${page.feedback.ok ? "ok" : "bad"}`, id: "feedback" },
    page.feedback.text));
  return el("div", { class: "panel controls", id: "controls" }, el("h2", {}, STRINGS.controls), rows);
}

function headerNode() {
  const info = page.info;
  const meta = [info.time_control === "-" ? STRINGS.noClock : info.time_control, info.mode,
    info.rules].concat(info.strict ? [STRINGS.strictMode] : []).join(" · ");
  return el("div", { class: "header" },
    el("h1", {}, `${info.white} – ${info.black}`),
    el("span", { class: "meta" }, meta),
    el("span", { class: "meta" },
      el("a", { href: "/" }, STRINGS.viewArbiter), " · ", el("a", { href: "/clock" }, STRINGS.viewClock),
      " · ", el("a", { href: "/teach" }, STRINGS.viewTeach)),
    languageMenu(),
    el("span", { id: "status", class: "status" }));
}

/* The page's language menu: a choice is kept in this browser and the page loads anew in it. */
function languageMenu() {
  const names = (page.info && page.info.languages) || {};
  const menu = el("select", { id: "language", "aria-label": STRINGS.language },
    Object.entries(names).map(([code, name]) => el("option", { value: code }, name)));
  menu.value = page.language;
  menu.addEventListener("change", () => {
    localStorage.setItem("arbiterLanguage", menu.value);
    loadStrings(menu.value).then(render);
  });
  return el("span", { class: "meta" }, menu);
}

/* The page's words in `chosen` (none: the browser's or the game's language, as the server
 * decides); the page stays in English if the server cannot answer. */
async function loadStrings(chosen) {
  try {
    const query = chosen ? `?lang=${encodeURIComponent(chosen)}` : "";
    const response = await fetch(`/api/strings${query}`, { cache: "no-store" });
    if (!response.ok) return;
    const data = await response.json();
    translate(STRINGS, data.strings);
    if (data.decimal) DECIMAL[data.language] = data.decimal;
    page.language = data.language;
    document.documentElement.lang = data.language.replace("_", "-");
  } catch (err) {
    /* English stays */
  }
}

function resultNode() {
  // the last `game_over`, unless the arbiter's verdict on a claim let the game go on
  const over = page.board && page.board.over ? page.rulings.filter((r) => r.type === "game_over").pop() : null;
  return over ? el("div", { class: "result", id: "result" }, fill(STRINGS.result, { result: over.result }),
    " ", el("span", { class: "note" }, sentence(over, page.language))) : null;
}

function renderArbiter(root) {
  root.append(headerNode(), el("div", { class: "grid" },
    el("div", {},
      el("div", { class: "panel" }, positionBoxes()),
      el("div", { class: "panel" }, el("h2", {}, STRINGS.moves), movesNode()),
    ),
    el("div", {},
      el("div", { class: "panel" }, el("h2", {}, STRINGS.clocks), clocksNode(), resultNode()),
      el("div", { class: "panel" }, el("h2", {}, STRINGS.rulings), rulingsNode()),
      controlsNode(),
      el("div", { class: "panel" }, el("h2", {}, STRINGS.downloads),
        el("a", { href: "/game.pgn", download: "" }, STRINGS.pgn), " · ",
        el("a", { href: "/journal.jsonl", download: "" }, STRINGS.journal)),
    )));
}

/* The players' clock face: only what a clock shows (12.6): the times, which one runs, the
 * flag, the increment or delay; never a move, a duty or a ruling. */
function renderClock(root) {
  document.body.classList.add("face");
  const info = page.info;
  const taps = info.taps && page.token;
  const reading = readingNow();
  const halves = el("div", { class: "halves" });
  const sides = page.leftSide === "black" ? ["black", "white"] : ["white", "black"];
  for (const side of sides) {
    const running = page.clock && page.clock.running === side && !page.clock.paused;
    const marks = info.timed ? marksNode(side) : [];
    if (page.clock && page.clock.paused) marks.push(el("span", { class: "mark mark-paused" }, STRINGS.pausedMark));
    if (page.flags[side]) marks.push(el("span", { class: "mark mark-flag" }, STRINGS.flag));
    const classes = ["half", running ? "running" : "", page.flags[side] ? "flagged" : "", taps ? "tap" : ""];
    const half = el(taps ? "button" : "div", { class: classes.join(" "), "data-side": side },
      el("div", { class: "label" }, info[side]),
      el("div", { class: "digits", "data-clock": side },
        info.timed && reading ? fmtClock(reading[side], page.language) : STRINGS.noTime),
      el("div", { class: "indicators", "data-marks": side }, marks));
    if (taps) half.addEventListener("pointerdown", () => send("/api/press", { side }, "press"));
    halves.append(half);
  }
  root.append(halves, el("div", { class: "bar" },
    el("button", { onclick: () => document.documentElement.requestFullscreen?.() }, STRINGS.fullScreen),
    el("button", { onclick: () => { page.leftSide = page.leftSide === "white" ? "black" : "white"; render(); } },
      STRINGS.swapSides),
    el("span", { id: "status", class: "status" }),
    el("span", { id: "feedback", class: "feedback" })));
}

function renderTeach(root) {
  root.append(headerNode());
  const board = page.board;
  const position = placement(board.fen);
  const marks = {};
  const duty = board.duties[0];
  let words = fill(STRINGS.teachNoDuty, { side: STRINGS.sideNames[board.to_move] });
  if (board.over) words = fill(STRINGS.teachOver, { result: board.result });
  else if (duty) {
    words = teachText(duty, position);
    if (duty.square) marks[duty.square] = ["touched"];
    for (const sq of duty.targets) marks[sq] = (marks[sq] || []).concat("target");
  }
  const refusal = board.over ? null : lastRefusal(page.rulings);
  if (refusal && refusal.square) marks[refusal.square] = (marks[refusal.square] || []).concat("refused");
  root.append(el("div", { class: "grid teach" },
    el("div", { class: "panel" }, el("div", { class: "boardbox" }, boardNode(position, marks, STRINGS.position))),
    el("div", { class: "panel" },
      el("h2", {}, STRINGS.teachTitle),
      el("p", { class: "duty", id: "duty" }, words),
      refusal ? el("p", { class: "refusal", id: "refused" },
        fill(STRINGS.teachRefused, { why: sentence(refusal, page.language) || refusal.type })) : null,
      lessonText(refusal, page.language) ? el("p", { class: "lesson", id: "lesson" },
        lessonText(refusal, page.language)) : null,
      el("h2", {}, STRINGS.clocks), clocksNode())));
}

function renderStatus() {
  const node = document.getElementById("status");
  if (!node) return;
  node.className = `status ${page.connected ? "live" : "lost"}`;
  node.textContent = page.connected ? STRINGS.live : STRINGS.lost;
}

function renderFeedback() {
  const node = document.getElementById("feedback");
  if (!node) return;
  node.className = `feedback ${page.feedback.ok ? "ok" : "bad"}`;
  node.textContent = page.feedback.text;
}

function render() {
  const root = document.getElementById("app");
  if (!page.info || !page.board) { root.textContent = STRINGS.connecting; return; }
  const focused = document.activeElement && document.activeElement.id;
  const keep = {};
  for (const input of root.querySelectorAll("input, select")) {
    if (page.edited.has(input.id)) keep[input.id] = input.value;  // what the arbiter typed
  }
  root.replaceChildren();
  if (page.view === "clock") renderClock(root);
  else if (page.view === "teach") renderTeach(root);
  else renderArbiter(root);
  for (const [id, value] of Object.entries(keep)) {
    const input = document.getElementById(id);
    if (input) input.value = value;
  }
  for (const input of root.querySelectorAll("input, select")) {
    input.addEventListener("input", () => page.edited.add(input.id));
  }
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  renderStatus();
  renderFeedback();
}

/* The clocks tick between two messages of the server: only their text is redrawn. */
function tick() {
  const reading = readingNow();
  if (reading) {
    for (const node of document.querySelectorAll("[data-clock]")) {
      node.textContent = page.info.timed ? fmtClock(reading[node.dataset.clock], page.language) : STRINGS.noTime;
    }
  }
  if (page.info && page.info.timed) {
    // the delay counts down on the face; the other symbols change only with the rulings
    for (const node of document.querySelectorAll("[data-marks]")) {
      const delay = node.querySelector(".mark-delay");
      if (!delay) continue;
      const fresh = marksNode(node.dataset.marks).find((m) => m.classList.contains("mark-delay"));
      if (fresh && (fresh.textContent !== delay.textContent || fresh.className !== delay.className)) {
        delay.replaceWith(fresh);
      }
    }
  }
  for (const node of document.querySelectorAll(".face .digits")) {
    node.classList.toggle("long", node.textContent.length > 5);  // h:mm:ss
  }
}

window.ArbiterPage = {
  STRINGS, fill, translate, sentence, fmtClock, fmtNumber, decimalSeparator, parseClock, streamNow, clockReading, movesOf, positionAt, placement,
  squareName, squareIndex, differences, teachText, lessonText, periodOf, movesMade, delayLeft, faceMarks, lastClaimIndex, verdictChoices, openMismatch, lastRefusal, logged,
  withoutArticle,
};

if (!window.ARBITER_NO_START) {
  document.title = STRINGS.title;
  takeToken();
  render();
  loadStrings(localStorage.getItem("arbiterLanguage")).then(() => {
    render();
    connect();
  });
  setInterval(tick, 100);
}
