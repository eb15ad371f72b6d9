// Unit tests of the page's own script (arbiter/web/static/app.js), run inside Chromium by
// tests/web/test_page_script.py. Each test throws on failure; the runner returns the names
// of those that failed.
(() => {
  const A = window.ArbiterPage;
  const tests = {};
  const eq = (got, want, what) => {
    const g = JSON.stringify(got), w = JSON.stringify(want);
    if (g !== w) throw new Error(`${what}: got ${g}, want ${w}`);
  };

  tests.clockText = () => {
    eq(A.fmtClock(300), "5:00", "five minutes");
    eq(A.fmtClock(59.99), "0:59", "seconds are cut, not rounded up");
    eq(A.fmtClock(9.87), "0:09.8", "tenths under ten seconds");
    eq(A.fmtClock(3725), "1:02:05", "hours");
    eq(A.fmtClock(-3), "0:00.0", "never negative");
    eq(A.fmtClock(null), "–:––", "no reading");
  };
  tests.numbersInThePagesLanguage = () => {
    // CLDR: a decimal comma in sr, bs, mk, cs and pl (sr_Cyrl as sr), a point in English
    for (const language of ["sr", "bs", "mk", "cs", "pl", "sr_Cyrl"]) {
      eq(A.decimalSeparator(language), ",", `${language}: decimal comma`);
      eq(A.fmtClock(9.87, language), "0:09,8", `${language}: tenths with a comma`);
      eq(A.fmtNumber(2.5, language), "2,5", `${language}: an increment`);
    }
    eq(A.decimalSeparator("en"), ".", "en: decimal point");
    eq(A.fmtClock(9.87, "en"), "0:09.8", "en: tenths with a point");
    eq(A.fmtClock(300, "cs"), "5:00", "whole seconds: no separator");
    eq(A.fmtNumber(1234.5, "pl"), "1234,5", "no digit grouping");
    const fischer = [{ seconds: 300, moves: null, increment: 2.5, delay: 0, bronstein: 0 }];
    eq(A.faceMarks(fischer, 0, null, "cs").map((m) => m.text), ["+2,5"], "increment in Czech");
    eq(A.faceMarks(fischer, 0, null, "en").map((m) => m.text), ["+2.5"], "increment in English");
  };
  tests.parseClock = () => {
    eq(A.parseClock("5:00"), 300, "m:ss");
    eq(A.parseClock("1:02:05"), 3725, "h:mm:ss");
    eq(A.parseClock("90"), 90, "seconds");
    eq(Number.isNaN(A.parseClock("5:xx")), true, "unreadable");
  };
  tests.runningClockGoesDown = () => {
    const clock = { t: 10, white: 100, black: 200, running: "white", paused: false };
    eq(A.clockReading(clock, 15, { delay: 0 }, 10), { white: 95, black: 200 }, "5 s used");
    eq(A.clockReading(clock, 500, { delay: 0 }, 10), { white: 0, black: 200 }, "not below 0");
    eq(A.clockReading({ ...clock, paused: true }, 50, {}, 10), { white: 100, black: 200 }, "paused");
  };
  tests.usDelayAndHourglass = () => {
    const clock = { t: 10, white: 100, black: 200, running: "black", paused: false };
    eq(A.clockReading(clock, 13, { delay: 5 }, 10), { white: 100, black: 200 }, "within delay");
    eq(A.clockReading(clock, 18, { delay: 5 }, 10), { white: 100, black: 197 }, "after delay");
    eq(A.clockReading(clock, 14, { hourglass: true }, 10), { white: 104, black: 196 }, "sand");
  };
  tests.streamTime = () => {
    eq(A.streamNow({ t: 10, at: 1000 }, 3000, 1), 12, "real time");
    eq(A.streamNow({ t: 10, at: 1000 }, 3000, 60), 130, "the demo's speed");
  };
  const rulings = [
    { type: "move", t: 1, ply: 1, san: "e4", uci: "e2e4", fen: "F1", side: "white" },
    { type: "clock", t: 1, white: 301, black: 300, running: "black", paused: false },
    { type: "move", t: 2, ply: 2, san: "e5", uci: "e7e5", fen: "F2", side: "black" },
    { type: "clock", t: 2, white: 301, black: 299, running: "white", paused: false },
    { type: "move", t: 3, ply: 3, san: "Qh5", uci: "d1h5", fen: "F3", side: "white" },
    { type: "reinstate", t: 4, ply: 2, fen: "F2", reason: "strict" },
    { type: "move", t: 5, ply: 3, san: "Nf3", uci: "g1f3", fen: "F3b", side: "white" },
    { type: "clock", t: 6, white: 290, black: 299, running: null, paused: true },
  ];
  tests.movesAfterAReinstatement = () => {
    eq(A.movesOf(rulings).map((m) => m.san), ["e4", "e5", "Nf3"], "Qh5 was taken back");
    eq(A.movesOf(rulings).map((m) => m.clk), [301, 299, 290], "%clk of each move");
  };
  tests.historyAtAnyPly = () => {
    eq(A.positionAt(rulings, 0, "START"), "START", "ply 0");
    eq(A.positionAt(rulings, 2, "START"), "F2", "ply 2");
    eq(A.positionAt(rulings, 3, "START"), "F3b", "the move that stands");
  };
  tests.placementIndexesSquaresFromA1 = () => {
    const board = A.placement("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    eq(board[A.squareIndex("e4")], "P", "e4");
    eq(board[A.squareIndex("e2")], "", "e2 empty");
    eq(board[A.squareIndex("h8")], "r", "h8");
    eq(A.squareName(0) + A.squareName(63), "a1h8", "names");
  };
  tests.whatToPutBack = () => {
    const position = A.placement("8/8/8/8/8/8/8/4K2k w - - 0 1");
    const sensed = position.slice();
    sensed[A.squareIndex("e1")] = "";
    sensed[A.squareIndex("d4")] = "N";
    eq(A.differences(sensed, position, ["e1", "d4"]), { e1: "missing", d4: "extra" }, "marks");
  };
  tests.teachingWords = () => {
    const position = A.placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    const duty = { side: "white", kind: "move_piece", square: "g1", targets: ["f3", "h3"] };
    eq(A.teachText(duty, position),
      "White, you touched the knight on g1: you must move it. It may go to: f3, h3.", "words");
  };
  tests.teachingWordsOfACaptureDuty = () => {
    const position = A.placement("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    const duty = { side: "white", kind: "capture_piece", square: "d5", targets: ["e4"] };
    eq(A.teachText(duty, position), "White, you touched the opponent's pawn on d5: you must"
      + " capture it. It may be captured from: e4.", "words");
  };
  tests.claimsAndRefusals = () => {
    const claim = { type: "claim", side: "black", kind: "threefold", valid: false };
    eq(A.lastClaimIndex([claim, rulings[0], claim, rulings[0]]), 2, "the last claim");
    eq(A.lastClaimIndex([rulings[0]]), -1, "none");
    const violation = { type: "violation", square: "g1", message: "why" };
    const refused = [violation, { type: "reinstate", reason: "strict" }];
    eq(A.lastRefusal(refused), violation, "the violation says why");
    eq(A.lastRefusal([...refused, rulings[0]]), null, "until the next move");
  };
  tests.thePeriodOfAPlayer = () => {
    const pgn = [{ seconds: 5400, moves: 40, increment: 30, delay: 0, bronstein: 0 },
      { seconds: 1800, moves: null, increment: 30, delay: 0, bronstein: 0 }];
    eq(A.periodOf(pgn, 0).n, 1, "the start: period 1");
    eq(A.periodOf(pgn, 0).toControl, 40, "40 moves to the control");
    eq(A.periodOf(pgn, 39).toControl, 1, "the 40th move still to make");
    eq(A.periodOf(pgn, 40).n, 2, "after the 40th move: period 2");
    eq(A.periodOf(pgn, 40).toControl, null, "the rest of the game");
    const repeating = [{ seconds: 7200, moves: 40 }, { seconds: 3600, moves: 20 }];
    eq([A.periodOf(repeating, 59).n, A.periodOf(repeating, 59).toControl], [2, 1], "60th to make");
    eq([A.periodOf(repeating, 65).n, A.periodOf(repeating, 65).toControl], [2, 15], "it repeats");
    eq(A.periodOf([], 3), null, "untimed");
  };
  tests.aRejectedTouchMoveClaimBringsTheMoveBack = () => {
    const played = [rulings[0], rulings[2],
      { type: "claim", t: 3, side: "white", kind: "touch_move", valid: true },
      { type: "reinstate", t: 3, ply: 1, fen: "F1", reason: "claim_upheld" },
      { type: "arbiter_action", t: 9, side: "white", action: "reject_claim" },
      { type: "claim", t: 9, side: "white", kind: "touch_move", valid: false }];
    eq(A.movesOf(played.slice(0, 4)).map((m) => m.san), ["e4"], "reinstated");
    eq(A.movesOf(played).map((m) => m.san), ["e4", "e5"], "the move stands again");
  };
  tests.movesMadeBySide = () => {
    eq(A.movesMade(rulings), { white: 2, black: 1 }, "the moves that stand (Qh5 taken back)");
  };
  tests.theDelayCountsDownOnTheRunningSideOnly = () => {
    const clock = { t: 10, white: 100, black: 200, running: "white", paused: false };
    eq(A.delayLeft(5, clock, "white", 12, 10), 3, "3 s of the delay left");
    eq(A.delayLeft(5, clock, "white", 17, 10), 0, "spent: the main time runs");
    eq(A.delayLeft(5, clock, "black", 12, 10), null, "not the running side");
    eq(A.delayLeft(5, { ...clock, paused: true }, "white", 12, 10), null, "paused");
    eq(A.delayLeft(0, clock, "white", 12, 10), null, "no delay");
  };
  tests.theFaceSymbolsAsADgt3000ShowsThem = () => {
    const fischer = [{ seconds: 180, moves: null, increment: 2, delay: 0, bronstein: 0 }];
    eq(A.faceMarks(fischer, 5, null).map((m) => m.text), ["+2"], "Fischer: +2 only");
    const usDelay = [{ seconds: 3600, moves: null, increment: 0, delay: 5, bronstein: 0 }];
    eq(A.faceMarks(usDelay, 0, 3.2).map((m) => [m.text, m.counting]), [["4", true]], "counting");
    eq(A.faceMarks(usDelay, 0, 0).map((m) => [m.text, m.counting]), [["0", false]], "spent");
    eq(A.faceMarks(usDelay, 0, null).map((m) => [m.text, m.counting]), [["5", false]], "idle");
    const bronstein = [{ seconds: 600, moves: null, increment: 0, delay: 0, bronstein: 3 }];
    eq(A.faceMarks(bronstein, 0, null).map((m) => m.text), ["↺3"], "Bronstein");
    const pgn = [{ seconds: 5400, moves: 40, increment: 30, delay: 0, bronstein: 0 },
      { seconds: 1800, moves: null, increment: 30, delay: 0, bronstein: 0 }];
    eq(A.faceMarks(pgn, 12, null).map((m) => m.text), ["P1", "▸28", "+30"], "period 1, 28 to go");
    eq(A.faceMarks(pgn, 40, null).map((m) => m.text), ["P2", "+30"], "period 2 to the end");
    eq(A.faceMarks(pgn, 12, null)[0].title, "period 1: 28 moves to the time control", "in words");
  };
  tests.theVerdictsOnAClaim = () => {
    eq(A.verdictChoices({ side: "white", kind: "fifty", valid: false }).map((c) => [c.id, c.valid]),
      [["claim-uphold", true], ["claim-confirm", false]], "a refused claim may be upheld");
    eq(A.verdictChoices({ side: "black", kind: "threefold", valid: true }).map((c) => [c.id, c.valid]),
      [["claim-reject", false], ["claim-confirm", true]], "an upheld claim may be rejected");
    eq(A.verdictChoices(null), [], "no claim open: no control");
  };
  tests.aMismatchStandsUntilTheNextMove = () => {
    const mismatch = { type: "mismatch", missing: [], extra: [] };
    eq(A.openMismatch([rulings[0], mismatch]), mismatch, "open");
    eq(A.openMismatch([mismatch, rulings[0]]), null, "closed by a move");
  };
  tests.theLogLeavesOutThePressesClocks = () => {
    eq(A.logged(rulings).filter((r) => r.type === "clock").length, 1, "only the pause's");
    // moves ruled as their pieces settled, each clock reading at the press after them
    const settled = [
      { type: "move", t: 1.2, ply: 1, san: "e4", side: "white" },
      { type: "clock", t: 1.9, white: 301, black: 300, running: "black", paused: false },
      { type: "move", t: 3.1, ply: 2, san: "e5", side: "black" },
      { type: "clock", t: 3.8, white: 301, black: 299, running: "white", paused: false },
      { type: "arbiter_action", t: 5, action: "add_time", side: "black", seconds: 60 },
      { type: "clock", t: 5, white: 300, black: 359, running: "white", paused: false },
      { type: "illegal", t: 7, side: "white", completed: true },
      { type: "penalty", t: 7, side: "black", seconds: 60 },
      { type: "clock", t: 7, white: 298, black: 419, running: "white", paused: false },
      { type: "move", t: 8, ply: 3, san: "Nf3", side: "white" },
      { type: "clock", t: 8.5, white: 299, black: 419, running: "black", paused: false },
      { type: "flag", t: 20, side: "black" },
      { type: "clock", t: 20, white: 299, black: 0, running: null, paused: false },
    ];
    eq(A.logged(settled).filter((r) => r.type === "clock").map((r) => r.t), [5, 7, 20],
      "the arbiter's time, the penalty's and the flag's; no routine press");
  };
  tests.theLogSaysAnArticleOnce = () => {
    eq(A.withoutArticle("Black touched the piece on h7 and must move it (Art. 4.3.1).", "4.3.1"),
      "Black touched the piece on h7 and must move it.", "English");
    eq(A.withoutArticle("Biały otrzymuje 60 sekund (art. 7.5.5, A.3).", "7.5.5, A.3"),
      "Biały otrzymuje 60 sekund.", "a penalty's two articles, in Polish");
    eq(A.withoutArticle("Black's claim (threefold repetition) is not correct (Art. 9.5.3).", "9.5.3"),
      "Black's claim (threefold repetition) is not correct.", "the claim's kind stays");
    eq(A.withoutArticle("Beli nije uzeo figuru na g1 (taknuto-maknuto, čl. 4.3.1).", "4.3.1"),
      "Beli nije uzeo figuru na g1 (taknuto-maknuto).", "the words beside the article stay");
    eq(A.withoutArticle("White played e4 (Art. 14.3).", "4.3"), "White played e4 (Art. 14.3).",
      "another article is not cut");
    eq(A.withoutArticle("Clocks: White 4:58, Black 6:00.", undefined),
      "Clocks: White 4:58, Black 6:00.", "no article");
  };
  tests.translatedStringsReplaceTheEnglishKeyByKey = () => {
    const into = { moves: "Moves", pieceNames: { q: "queen", k: "king" }, flag: "F" };
    A.translate(into, { moves: "Potezi", pieceNames: { q: "dama" }, unknown: "x", flag: { no: 1 } });
    eq(into, { moves: "Potezi", pieceNames: { q: "dama", k: "king" }, flag: "F" }, "merged");
  };
  tests.aRulingsSentenceInThePagesLanguage = () => {
    const r = { message: "White played e4.", messages: { sr: "Beli je odigrao e4." } };
    eq(A.sentence(r, "sr"), "Beli je odigrao e4.", "Serbian");
    eq(A.sentence(r, "en"), "White played e4.", "English");
    eq(A.sentence(r, "pl"), "White played e4.", "a language the ruling lacks: English");
    eq(A.sentence({ message: "m" }, "cs"), "m", "no messages at all");
    eq(A.sentence(null, "cs"), "", "no ruling");
  };
  const failed = [];
  for (const [name, test] of Object.entries(tests)) {
    try { test(); } catch (err) { failed.push(`${name}: ${err.message}`); }
  }
  return { ran: Object.keys(tests).length, failed };
})();
