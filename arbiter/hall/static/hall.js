// The hall's page and one board's page: both follow /events (`hall` messages).
"use strict";
const PIECES = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙",
                 k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
// The pages' words in English; /api/strings gives them in the page's language (its menu's
// choice, kept in localStorage, else the browser's, else the station's): arbiter/hall/strings.py
const STRINGS = {
  hall: "The hall", connecting: "connecting…", reconnecting: "reconnecting…", alarms: "Alarms",
  boards: "{count} boards", board: "Board {name}", boardGame: "Board {name}: {white} – {black}",
  boardLink: "board {name}", done: "done", journaled: "journaled by the board as event {seq}",
  offline: "offline", catchingUp: "catching up", ply: "ply {moves}",
  whiteToMove: "White to move", blackToMove: "Black to move", backToHall: "← the hall",
  arbiter: "Arbiter", token: "Token", pause: "Pause clocks", resume: "Resume",
  whitePlus: "White +1 min", blackPlus: "Black +1 min", warnWhite: "Warn White",
  warnBlack: "Warn Black", record: "Record", language: "Language",
  alarm_illegal: "illegal move", alarm_flag: "flag", alarm_claim: "claim",
  alarm_wrong_start: "wrong start position", alarm_mismatch: "mismatch",
  alarm_disconnected: "disconnected", alarm_silent: "silent",
};
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
// the language of the page's words: each alarm comes with its sentence in every language
let pageLanguage = "en";
const oneBoard = document.body.classList.contains("one");
const boardName = oneBoard ? decodeURIComponent(location.pathname.split("/").pop()) : null;
// what the header's link says (a key of STRINGS and its values): kept, so that the page's
// words, which may come after the first `hall` message, say it again instead of resetting it
let linkSays = { key: "connecting", values: {} };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  });
  children.forEach((c) => node.append(c));
  return node;
}

function miniBoard(fen, big) {
  const grid = el("div", { class: big ? "mini big" : "mini" });
  const rows = (fen || "8/8/8/8/8/8/8/8").split(" ")[0].split("/");
  rows.forEach((row, r) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) {
        for (let i = 0; i < Number(ch); i++, file++) grid.append(square(r, file, ""));
      } else { grid.append(square(r, file, PIECES[ch] || "?")); file++; }
    }
  });
  return grid;
}

function square(rank, file, text) {
  return el("div", { class: (rank + file) % 2 === 0 ? "l" : "d" }, text);
}

function clock(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = String(m).padStart(2, "0"), ss = String(r).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The header's link says `key` (of STRINGS) filled with `values`, in the page's words. */
function sayLink(key, values) {
  linkSays = { key, values: values || {} };
  document.getElementById("link").textContent = fill(STRINGS[key], linkSays.values);
}

function clocks(b) {
  const line = el("p", { class: "clocks" });
  line.append(el("span", { class: b.running === "white" ? "run" : "" }, "♔ " + clock(b.white_clock)));
  line.append(el("span", { class: "result" }, b.result === "*" ? (b.to_move ? STRINGS[b.to_move + "ToMove"] || b.to_move : "") : b.result));
  line.append(el("span", { class: b.running === "black" ? "run" : "" }, clock(b.black_clock) + " ♚"));
  return line;
}

/** The players' names: each ellipsized in its half of a card, the whole name its title. */
function names(b) {
  return el("div", { class: "names", title: `${b.white} – ${b.black}` },
    el("span", { title: b.white }, b.white), el("span", { class: "sep" }, " – "),
    el("span", { title: b.black }, b.black));
}

function alarmItem(a) {
  const li = el("li", { "data-board": a.board });
  li.append(el("span", { class: "kind" }, STRINGS["alarm_" + a.kind] || a.kind));
  li.append(el("a", { href: "/board/" + encodeURIComponent(a.board) }, fill(STRINGS.boardLink, { name: a.board })));
  li.append(": " + ((a.texts && a.texts[pageLanguage]) || a.text));
  const clear = el("button", { type: "button" }, STRINGS.done);
  clear.addEventListener("click", () => post(`/api/alarms/${a.id}/clear`, {}));
  li.append(clear);
  return li;
}

function showHall(state) {
  const alarms = document.getElementById("alarms");
  alarms.replaceChildren(...state.alarms.slice().reverse().map(alarmItem));
  document.getElementById("alarm-count").textContent = `(${state.alarms.length})`;
  const flagged = new Set(state.alarms.map((a) => a.board));
  const cards = state.boards.map((b) => {
    const card = el("a", { class: "card", href: "/board/" + encodeURIComponent(b.board), "data-board": b.board });
    if (flagged.has(b.board)) card.classList.add("alarm");
    if (b.online === false) card.classList.add("offline");
    card.append(el("div", { class: "top" }, el("b", {}, fill(STRINGS.board, { name: b.board })),
                   el("span", {}, b.online === false ? STRINGS.offline : (b.synced ? fill(STRINGS.ply, { moves: b.moves }) : STRINGS.catchingUp))));
    card.append(names(b));
    card.append(miniBoard(b.fen, false));
    card.append(clocks(b));
    return card;
  });
  document.getElementById("grid").replaceChildren(...cards);
}

function showBoard(state) {
  const b = state.boards.find((x) => x.board === boardName);
  document.getElementById("title").textContent = b ? fill(STRINGS.boardGame, { name: b.board, white: b.white, black: b.black }) : fill(STRINGS.board, { name: boardName });
  if (!b) return;
  document.getElementById("board").replaceWith(Object.assign(miniBoard(b.fen, true), { id: "board" }));
  document.getElementById("clocks").replaceWith(Object.assign(clocks(b), { id: "clocks" }));
  const alarms = state.alarms.filter((a) => a.board === boardName);
  document.getElementById("alarms").replaceChildren(...alarms.reverse().map(alarmItem));
  fetch(`/api/board/${encodeURIComponent(boardName)}.pgn`).then((r) => r.ok ? r.text() : "")
    .then((text) => { document.getElementById("pgn").textContent = text; });
}

async function post(url, body) {
  const token = (document.getElementById("token") || {}).value || sessionStorage.getItem("hall-token") || "";
  const answer = await fetch(url, { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "X-Arbiter-Token": token } });
  const data = await answer.json().catch(() => ({}));
  const out = document.getElementById("answer");
  const error = (data.errors && data.errors[pageLanguage]) || data.error || answer.statusText;
  if (out) out.textContent = answer.ok ? (data.seq ? fill(STRINGS.journaled, { seq: data.seq }) : STRINGS.done) : error;
  return answer.ok;
}

if (oneBoard) {
  const token = document.getElementById("token");
  token.value = sessionStorage.getItem("hall-token") || "";
  token.addEventListener("change", () => sessionStorage.setItem("hall-token", token.value));
  document.querySelectorAll("[data-action]").forEach((button) => {
    button.addEventListener("click", () =>
      post(`/api/board/${encodeURIComponent(boardName)}/control`, { action: JSON.parse(button.dataset.action) }));
  });
}

const source = new EventSource("/events");
source.addEventListener("hall", (e) => {
  const state = JSON.parse(e.data);
  if (oneBoard) showBoard(state); else showHall(state);
  sayLink("boards", { count: state.boards.length });
});
source.onerror = () => sayLink("reconnecting");

/** The pages' words in their language, and the language menu (kept by the browser). */
async function localize() {
  const chosen = localStorage.getItem("hall-lang");
  const query = chosen ? "?lang=" + encodeURIComponent(chosen) : "";
  const answer = await fetch("/api/strings" + query).catch(() => null);
  if (!answer || !answer.ok) return;
  const data = await answer.json();
  Object.assign(STRINGS, data.strings);
  pageLanguage = data.language;
  document.documentElement.lang = data.language.replace("_", "-");
  document.querySelectorAll("[data-i18n]").forEach((node) => {
    node.textContent = STRINGS[node.dataset.i18n] || node.textContent;
  });
  sayLink(linkSays.key, linkSays.values);  // the connection's state as it stands, never reset
  if (!oneBoard) document.title = STRINGS.hall;
  const menu = el("select", { "aria-label": STRINGS.language, id: "lang" });
  Object.entries(data.languages).forEach(([code, name]) => {
    const option = el("option", { value: code }, name);
    if (code === data.language) option.selected = true;
    menu.append(option);
  });
  menu.addEventListener("change", () => { localStorage.setItem("hall-lang", menu.value); location.reload(); });
  document.querySelector("header").append(menu);
}
sayLink(linkSays.key, linkSays.values);
localize();
