// The web seat: one player's view of a Texas Hold'em game hosted by a cabinet.
// The host sends this seat only its own view; every move is checked by the host.
"use strict";
(function () {
  const WORDS = window.FRIENDS_WORDS;
  const CODE = window.FRIENDS_CODE;  // a game code: CODE.length characters of CODE.alphabet
  const CODE_RE = new RegExp("^[" + CODE.alphabet + "]{" + CODE.length + "}$");
  const $ = (id) => document.getElementById(id);
  const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  const HOST_GONE_MS = 60000;  // without the host this long, the notice says it has not come back
  const app = {
    code: null, socket: null, seat: null, state: null, lang: "en", opened: false,
    everSeated: false, retry: 0, over: false, left: false, raiseTo: 0, panel: false,
    voteAt: 0, voteSeconds: 0, timer: null, turnTimer: null, turnAt: 0, turnSeconds: null, hostWait: null, turnText: "",
  };
  window.friends = app;

  // -- words ------------------------------------------------------------------------
  function lang() { return WORDS[app.lang] || WORDS.en; }
  function w(key, params) {
    let text = lang().words[key] || WORDS.en.words[key] || key;
    for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(String(v));
    return text;
  }
  function num(n) { return Number(n).toLocaleString(app.lang === "fr" ? "fr-FR" : "en-US"); }
  function handName(h) {
    if (!h) return "";
    const L = lang();
    const r1 = h.ranks[0] !== undefined ? h.ranks[0] : 0;
    const r2 = h.ranks[1] !== undefined ? h.ranks[1] : r1;
    const forms = { rank: L.rank[r1], ranks: L.ranks[r1], of_ranks: L.of_ranks[r1],
      rank2: L.rank[r2], ranks2: L.ranks[r2], of_ranks2: L.of_ranks[r2] };
    let text = L.hands[h.cat];
    for (const [k, v] of Object.entries(forms)) text = text.split("{" + k + "}").join(v);
    return text;
  }
  function place(n) { return lang().places[n - 1] || String(n); }
  function translateStatic() {
    document.documentElement.lang = app.lang;
    for (const el of document.querySelectorAll("[data-w]")) el.textContent = w(el.dataset.w);
    $("lang").value = app.lang;
  }

  // -- screens ----------------------------------------------------------------------
  function show(id) {
    for (const el of document.querySelectorAll(".screen")) el.hidden = el.id !== id;
    document.body.dataset.phase = id.replace("screen-", "");
  }
  function message(text) { $("message-text").textContent = text; show("screen-message"); }

  // -- the socket -------------------------------------------------------------------
  function tokenKey() { return "friends:" + app.code + ":token"; }
  function resultsKey() { return "friends:" + app.code + ":results"; }
  function send(msg) {
    if (app.socket && app.socket.readyState === WebSocket.OPEN) app.socket.send(JSON.stringify(msg));
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const token = localStorage.getItem(tokenKey());  // a seated player's reconnect always has room
    const ws = new WebSocket(scheme + location.host + "/g/" + app.code + "/ws" +
                             (token ? "?seat=" + encodeURIComponent(token) : ""));
    app.socket = ws;
    ws.onopen = () => { app.opened = true; app.retry = 0; app.lostAt = null; $("notice").hidden = true; };
    ws.onmessage = (ev) => { let m; try { m = JSON.parse(ev.data); } catch (e) { return; } receive(m); };
    ws.onclose = () => {
      if (app.socket !== ws) return;
      app.socket = null;
      if (app.over || app.left) return;
      if (!app.opened && !app.everSeated) { message(w("no_game")); return; }
      // after a minute without the host, say so in words (and keep trying: it may come back)
      app.lostAt = app.lostAt || Date.now();
      notice(w(Date.now() - app.lostAt > HOST_GONE_MS ? "host_gone" : "reconnecting"));
      app.retry = Math.min(app.retry + 1, 6);
      setTimeout(connect, 300 * app.retry);
    };
  }
  function receive(m) {
    if (m.type === "hello") {
      if (m.over) { showSavedResults() || message(w("ended")); return; }
      const token = localStorage.getItem(tokenKey());
      if (token) send({ type: "resume", token: token });
      else showJoin();
    } else if (m.type === "welcome") {
      app.seat = m.seat; app.everSeated = true;
      localStorage.setItem(tokenKey(), m.token);
      send({ type: "lang", lang: app.lang });
    } else if (m.type === "refused") {
      refused(m);
    } else if (m.type === "state") {
      app.state = m; render();
    } else if (m.type === "closed") {
      if (m.reason === "left") { app.left = true; localStorage.removeItem(tokenKey()); message(w("left")); }
    }
  }
  function refused(m) {
    const key = "r_" + m.code;
    let text = WORDS.en.words[key] ? w(key) : (m.code.startsWith("name.") ? w("r_name") : w("refused", { detail: m.detail }));
    if (m.code === "seat.unknown") { localStorage.removeItem(tokenKey()); showJoin(); }
    if (document.body.dataset.phase === "join") { $("join-error").textContent = text; $("join-error").hidden = false; }
    else notice(text);
  }
  function notice(text) { const n = $("notice"); n.textContent = text; n.hidden = false; }

  // -- joining ----------------------------------------------------------------------
  function showJoin() {
    $("invited").textContent = w("invited", { code: app.code });
    $("name").placeholder = w("name");
    $("name").value = localStorage.getItem("friends:name") || "";
    show("screen-join");
  }
  $("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = $("name").value.trim();
    localStorage.setItem("friends:name", name);
    $("join-error").hidden = true;
    send({ type: "join", name: name, lang: app.lang });
  });
  $("code-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const code = $("code").value.toUpperCase().replace(/[\s-]/g, "");  // groups may be typed apart
    if (CODE_RE.test(code)) location.href = "/g/" + code;
    else { $("code-error").textContent = w("no_game"); $("code-error").hidden = false; }
  });

  // -- the table --------------------------------------------------------------------
  function cardEl(name) {
    const el = document.createElement("div");
    if (!name) { el.className = "card slot"; return el; }
    const suit = name[1];
    el.className = "card" + (suit === "h" || suit === "d" ? " red" : "");
    el.dataset.card = name;
    const rank = document.createElement("span");
    rank.textContent = name[0] === "T" ? "10" : name[0];
    const s = document.createElement("span");
    s.className = "suit"; s.textContent = SUITS[suit];
    el.append(rank, s);
    return el;
  }
  function backs(n) { const out = []; for (let i = 0; i < n; i++) { const b = document.createElement("div"); b.className = "card back"; out.push(b); } return out; }
  // a seat's name; the cabinet player who typed none is the Host (never "You")
  function nameOf(s) { return s.name || w("host"); }
  function statusText(s) {
    if (s.place && s.place > 0) return w("out");
    if (s.status === "away" || s.status === "left") return w("away");
    if (s.status === "host") return s.name ? w("host") : "";
    if (s.status === "computer") return w("computer");
    return "";
  }
  function lastText(s) { return s.last ? w("last_" + s.last) : ""; }

  function render() {
    const m = app.state;
    translateStatic();
    if (m.phase === "lobby") return renderLobby(m);
    if (m.phase === "over") return renderResults(m);
    show("screen-table");
    $("bar-hand").textContent = w("hand_n", { n: m.hand });
    $("bar-blinds").textContent = w("blinds", { small: num(m.blinds[0]), big: num(m.blinds[1]) }) +
      (m.blinds_in ? " · " + w("blinds_in", { n: m.blinds_in }) : "");
    // opponents
    const seats = $("seats"); seats.textContent = "";
    const n = m.seats.length;
    for (let i = 1; i < n; i++) {
      const s = m.seats[(m.you + i) % n];
      const el = document.createElement("div");
      el.className = "seat" + (m.to_act === s.seat ? " turn" : "") + (s.folded ? " folded" : "") + (s.place ? " out" : "");
      el.dataset.seat = s.seat;
      const name = document.createElement("div"); name.className = "name"; name.textContent = nameOf(s);
      const chips = document.createElement("div"); chips.className = "chips"; chips.textContent = num(s.chips);
      const status = document.createElement("div"); status.className = "status";
      status.textContent = [statusText(s), s.all_in ? w("last_allin") : lastText(s)].filter(Boolean).join(" · ");
      const bet = document.createElement("div"); bet.className = "bet"; bet.textContent = s.bet ? "▸ " + num(s.bet) : "";
      const marks = document.createElement("div"); marks.className = "marks";
      marks.append(...markEls(m, s.seat));
      const cards = document.createElement("div"); cards.className = "cards";
      if (s.cards) cards.append(...s.cards.map(cardEl));
      el.append(marks, name, chips, status, bet, cards);  // the markers first: a long name wraps round them
      // showdown: this seat's hand, and what it won, at the seat itself
      const shownHere = m.result ? m.result.shown.find((h) => h.seat === s.seat) : null;
      if (shownHere) { const h = document.createElement("div"); h.className = "hand"; h.textContent = handName(shownHere.hand); el.append(h); }
      if (m.result && m.result.won[s.seat] > 0) {
        el.classList.add("winner");
        const won = document.createElement("div"); won.className = "won"; won.textContent = "+" + num(m.result.won[s.seat]);
        el.append(won);
      }
      seats.append(el);
    }
    // board and pots
    const board = $("board"); board.textContent = "";
    for (let i = 0; i < 5; i++) board.append(cardEl(m.board[i]));
    const pots = $("pots"); pots.textContent = "";
    // at showdown the felt shows the pots that were won, not an empty pot
    const amounts = m.result && m.result.pots.length ? m.result.pots.map((p) => p.amount) : (m.pots.length ? m.pots : [0]);
    amounts.forEach((a, i) => {
      const el = document.createElement("span");
      el.textContent = amounts.length === 1 ? w("pot", { amount: num(a) }) : (i === 0 ? w("main_pot", { amount: num(a) }) : w("side_pot", { amount: num(a) }));
      pots.append(el);
    });
    const turnName = m.to_act !== null && m.to_act !== undefined ? nameOf(m.seats[m.to_act]) : null;
    app.turnText = m.your_turn ? w("your_turn") : (turnName ? w("turn_of", { name: turnName }) : "");
    app.turnAt = performance.now(); app.turnSeconds = m.turn_s; app.hostWait = m.host_wait_s;
    tickTurn();
    if (!app.turnTimer) app.turnTimer = setInterval(tickTurn, 250);
    // me
    const me = m.seats[m.you];
    $("me").className = "me" + (m.your_turn ? " turn" : "");
    $("me-name").textContent = nameOf(me);
    $("me-chips").textContent = num(me.chips);
    const tags = markEls(m, m.you).map((e) => e.textContent);
    if (me.bet) tags.push("▸ " + num(me.bet));
    if (me.place) tags.push(w("out"));
    if (me.status === "away") tags.push(w("away"));
    const myShown = m.result ? m.result.shown.find((h) => h.seat === m.you) : null;
    if (myShown) tags.push(handName(myShown.hand));
    if (m.result && m.result.won[m.you] > 0) tags.push("+" + num(m.result.won[m.you]));
    $("me-tags").textContent = tags.join(" · ");
    const mine = $("my-cards"); mine.textContent = "";
    if (m.cards.length) mine.append(...m.cards.map(cardEl)); else if (!me.place) mine.append(...backs(0));
    $("hand-name").textContent = handName(m.hand_name);
    renderResult(m);
    renderActions(m);
    renderVote(m);
    document.body.dataset.turn = m.your_turn ? "1" : "0";
    document.body.dataset.hand = String(m.hand);
  }
  function markEls(m, seat) {
    const out = [];
    const mk = (cls, text) => { const e = document.createElement("span"); e.className = "mark " + cls; e.textContent = text; out.push(e); };
    if (m.button === seat) mk("d", "D");
    if (m.sb === seat) mk("sb", "SB");
    if (m.bb === seat) mk("bb", "BB");
    return out;
  }
  function renderResult(m) {
    const el = $("result");
    if (!m.result) { el.hidden = true; return; }
    // one line per winner (each hand shown is at its seat)
    el.textContent = "";
    m.result.won.forEach((chips, seat) => {
      if (chips <= 0) return;
      const line = document.createElement("div"); line.className = "win-line";
      const mine = m.result.shown.find((h) => h.seat === seat);
      line.textContent = w("wins", { name: nameOf(m.seats[seat]), amount: num(chips) }) + (mine ? " · " + handName(mine.hand) : "");
      el.append(line);
    });
    el.hidden = false;
  }
  function renderActions(m) {
    const la = m.legal;
    $("actions").hidden = !la || app.panel;
    $("raise-panel").hidden = !la || !app.panel;
    if (!la) { app.panel = false; return; }
    $("btn-fold").disabled = !la.can_fold;
    $("btn-call").textContent = la.can_check ? w("check") : (la.call_amount >= la.stack ? w("all_in") : w("call", { amount: num(la.call_amount) }));
    const canMore = la.can_bet || la.can_raise;
    $("btn-raise").textContent = la.can_bet ? w("bet") : w("raise");
    $("btn-raise").disabled = !canMore && !(la.stack > la.call_amount);
    if (app.panel) renderPanel(la);
  }
  function renderPanel(la) {
    const slider = $("slider");
    slider.min = String(la.min_to); slider.max = String(la.max_to); slider.step = String(la.small_blind || 1);
    app.raiseTo = Math.max(la.min_to, Math.min(la.max_to, app.raiseTo || la.min_to));
    slider.value = String(app.raiseTo);
    const allIn = app.raiseTo >= la.max_to;
    $("btn-confirm").textContent = allIn ? w("all_in") : (la.can_bet ? w("bet_to", { amount: num(app.raiseTo) }) : w("raise_to", { amount: num(app.raiseTo) }));
    $("btn-confirm").dataset.amount = String(app.raiseTo);
  }
  function setRaise(to) { const la = app.state && app.state.legal; if (!la) return; app.raiseTo = to; renderPanel(la); }
  function renderVote(m) {
    const row = $("next-row");
    if (m.phase !== "hand_over" || !m.vote) { row.hidden = true; stopTimer(); return; }
    row.hidden = false;
    $("btn-next").disabled = m.vote.voted || !m.vote.counts;
    app.voteAt = performance.now(); app.voteSeconds = m.vote.seconds;
    const names = m.vote.waiting.filter((s) => s !== m.you).map((s) => nameOf(m.seats[s]));
    app.waitingNames = names;
    tickVote();
    if (!app.timer) app.timer = setInterval(tickVote, 250);
  }
  function tickVote() {
    const left = Math.max(0, Math.ceil(app.voteSeconds - (performance.now() - app.voteAt) / 1000));
    const parts = [w("next_in", { s: left })];
    if (app.waitingNames && app.waitingNames.length) parts.push(w("waiting_for", { names: app.waitingNames.join(", ") }));
    $("next-info").textContent = parts.join(" · ");
  }
  function tickTurn() {
    const gone = (performance.now() - app.turnAt) / 1000;
    let text = app.turnText || "";
    if (app.hostWait !== null && app.hostWait !== undefined) {
      text = w("host_waiting", { min: Math.max(1, Math.ceil((app.hostWait - gone) / 60)) });
    } else if (app.turnSeconds !== null && app.turnSeconds !== undefined && text) {
      text += " · " + w("seconds", { s: Math.max(0, Math.ceil(app.turnSeconds - gone)) });
    }
    $("turn").textContent = text;
  }
  function stopTimer() { if (app.timer) { clearInterval(app.timer); app.timer = null; } }

  function act(action, amount) {
    const m = app.state;
    if (!m || !m.legal) return;
    const msg = { type: "act", hand: m.hand, seq: m.seq, action: action };
    if (amount !== undefined) msg.amount = amount;
    app.panel = false;
    $("notice").hidden = true;
    send(msg);
  }
  $("btn-fold").addEventListener("click", () => act(app.state.legal.can_check ? "check" : "fold"));
  $("btn-call").addEventListener("click", () => { const la = app.state.legal; act(la.can_check ? "check" : (la.call_amount >= la.stack ? "allin" : "call")); });
  $("btn-raise").addEventListener("click", () => {
    const la = app.state.legal;
    if (!la.can_bet && !la.can_raise) { act("allin"); return; }
    app.panel = true; app.raiseTo = la.min_to; renderActions(app.state);
  });
  $("btn-back").addEventListener("click", () => { app.panel = false; renderActions(app.state); });
  $("btn-confirm").addEventListener("click", () => {
    const la = app.state.legal; const to = app.raiseTo;
    if (to >= la.max_to) act("allin"); else act(la.can_bet ? "bet" : "raise", to);
  });
  for (const key of ["min", "half", "three_quarters", "pot", "all_in"]) {
    $("preset-" + key).addEventListener("click", () => setRaise(app.state.legal.presets[key]));
  }
  $("slider").addEventListener("input", (ev) => setRaise(Number(ev.target.value)));
  $("minus").addEventListener("click", () => { const la = app.state.legal; setRaise(Math.max(la.min_to, app.raiseTo - la.big_blind)); });
  $("plus").addEventListener("click", () => { const la = app.state.legal; setRaise(Math.min(la.max_to, app.raiseTo + la.big_blind)); });
  $("btn-next").addEventListener("click", () => { if (app.state) { send({ type: "next", hand: app.state.hand }); $("btn-next").disabled = true; } });
  $("btn-leave").addEventListener("click", () => { $("leave-dialog").hidden = false; });
  $("leave-no").addEventListener("click", () => { $("leave-dialog").hidden = true; });
  $("leave-yes").addEventListener("click", () => { $("leave-dialog").hidden = true; send({ type: "leave" }); });
  $("lang").addEventListener("change", (ev) => {
    app.lang = ev.target.value; localStorage.setItem("friends:lang", app.lang);
    send({ type: "lang", lang: app.lang });
    translateStatic();
    if (app.state) render(); else if (document.body.dataset.phase === "join") showJoin();
  });

  // -- lobby and results ------------------------------------------------------------
  function renderLobby(m) {
    show("screen-lobby");
    $("bar-hand").textContent = w("game", { code: m.code }); $("bar-blinds").textContent = "";
    $("lobby-title").textContent = w("game", { code: m.code });
    const starts = $("lobby-start");
    // the host deals by itself: say when (the countdown comes every second)
    if (m.starts_in !== null && m.starts_in !== undefined) {
      starts.removeAttribute("data-w"); starts.textContent = w("starts_in", { s: m.starts_in });
    } else { starts.setAttribute("data-w", "waiting_host"); starts.textContent = w("waiting_host"); }
    const ul = $("lobby-seats"); ul.textContent = "";
    for (const s of m.seats) {
      const li = document.createElement("li");
      const a = document.createElement("span"); a.textContent = nameOf(s);
      const b = document.createElement("span"); b.className = "muted";
      b.textContent = s.status === "you" ? w("you") : (s.status === "host" && s.name ? w("host") : (s.status === "computer" ? w("computer") : ""));
      li.append(a, b); ul.append(li);
    }
  }
  function renderResults(m) {
    app.over = true; stopTimer();
    const saved = { game: m.code, table: m.table, hands: m.hands, seat: m.you,
      name: (m.standings.find((s) => s.seat === m.you) || {}).name, summary: m.summary,
      standings: m.standings.map((s) => ({ place: s.place, name: nameOf(s), seat: s.seat })),
      saved_at: new Date().toISOString() };
    localStorage.setItem(resultsKey(), JSON.stringify(saved));
    localStorage.removeItem(tokenKey());
    drawResults(saved);
  }
  function drawResults(r) {
    translateStatic();
    show("screen-results");
    $("bar-hand").textContent = w("game", { code: r.game }); $("bar-blinds").textContent = "";
    $("results-place").textContent = w("came", { place: place(r.summary.place), players: r.summary.players });
    const dl = $("results-stats"); dl.textContent = "";
    const rows = [["hands_played", num(r.summary.hands_played)], ["hands_won", num(r.summary.hands_won)],
      ["biggest_pot", num(r.summary.biggest_pot)], ["best_hand", handName(r.summary.best_hand) || "—"]];
    for (const [k, v] of rows) { const dt = document.createElement("dt"); dt.textContent = w(k); const dd = document.createElement("dd"); dd.textContent = v; dl.append(dt, dd); }
    const ol = $("results-standings"); ol.textContent = "";
    for (const s of r.standings) { const li = document.createElement("li"); li.textContent = s.name; if (s.seat === r.seat) li.className = "me-row"; ol.append(li); }
    const blob = new Blob([JSON.stringify(r, null, 2)], { type: "application/json" });
    const a = $("download"); a.href = URL.createObjectURL(blob); a.download = "holdem-" + r.game + ".json";
  }
  function showSavedResults() {
    const text = localStorage.getItem(resultsKey());
    if (!text) return false;
    try { app.over = true; drawResults(JSON.parse(text)); return true; } catch (e) { return false; }
  }

  // -- start ------------------------------------------------------------------------
  const saved = localStorage.getItem("friends:lang");
  const browser = (navigator.language || "en").slice(0, 2);
  app.lang = WORDS[saved] ? saved : (WORDS[browser] ? browser : "en");
  translateStatic();
  const match = location.pathname.match(/^\/g\/([^/]+)$/);
  if (!match || !CODE_RE.test(match[1])) { $("code").maxLength = CODE.length + 2; show("screen-code"); return; }
  app.code = match[1];
  connect();
})();
