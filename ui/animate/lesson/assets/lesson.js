// A lesson file's player: steps, play, keyboard, the URL hash, the pair table, the charts.
// Every text reaches the page through textContent; the only HTML is the pre-escaped
// token chips and merge cards the file was built with (ui/lesson.py).
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("lesson-data").textContent);
  const last = data.steps;
  const byId = (id) => document.getElementById(id);
  const number = (n) => Number(n).toLocaleString("en-US");
  const tokensWord = (n) => number(n) + (n === 1 ? " token" : " tokens");

  // --- chips: one rendered span per token, cloned wherever the token is shown ---------
  function chipsIn(id) {
    const spans = byId(id).querySelectorAll(".bpe > span");
    const chips = new Map();
    data.palette.forEach((token, i) => chips.set(token, spans[i]));
    return chips;
  }
  const plainChips = chipsIn("chips");
  const idChips = chipsIn("id-chips");

  function chip(token) {
    const chips = byId("show-ids").checked ? idChips : plainChips;
    const span = chips.get(token).cloneNode(true);
    span.title = data.tokens[token][0];
    return span;
  }

  // --- the passage at each step: start from bytes, fuse at the recorded positions ----
  const sequences = [data.start];
  function fuse(ids, lefts, newId) {
    const out = [];
    let next = 0;
    for (let i = 0; i < ids.length; i++) {
      if (next < lefts.length && lefts[next] === i) {
        out.push(newId);
        i++;
        next++;
      } else {
        out.push(ids[i]);
      }
    }
    return out;
  }
  function sequence(step) {
    while (sequences.length <= step) {
      const k = sequences.length;
      sequences.push(fuse(sequences[k - 1], data.fusions[k - 1], 255 + k));
    }
    return sequences[step];
  }

  function passage(ids, marked) {
    const div = document.createElement("div");
    div.className = "bpe";
    let breakNext = false;
    ids.forEach((token, i) => {
      const entry = data.tokens[token];
      if (i && (breakNext || entry[1])) div.appendChild(document.createElement("wbr"));
      breakNext = entry[2];
      const span = chip(token);
      if (marked.has(i)) span.classList.add("h");
      div.appendChild(span);
    });
    return div;
  }

  function showPassages(step) {
    const after = sequence(step);
    const beforeBox = byId("before-box");
    if (!data.start.length) {
      beforeBox.hidden = true;
      byId("after-label").textContent = "The passage is empty";
      byId("after").replaceChildren();
      byId("caption").textContent = "";
      return;
    }
    if (step === 0) {
      beforeBox.hidden = true;
      byId("after-label").textContent = "The passage as bytes · " + tokensWord(after.length);
      byId("after").replaceChildren(passage(after, new Set()));
      byId("caption").textContent = "";
      return;
    }
    const before = sequence(step - 1);
    const lefts = data.fusions[step - 1];
    const pairs = new Set();
    lefts.forEach((left) => {
      pairs.add(left);
      pairs.add(left + 1);
    });
    const fused = new Set(lefts.map((left, shift) => left - shift));
    beforeBox.hidden = false;
    byId("before-label").textContent = "Before step " + number(step) + " · " + tokensWord(before.length);
    byId("before").replaceChildren(passage(before, pairs));
    byId("after-label").textContent = "After step " + number(step) + " · " + tokensWord(after.length);
    byId("after").replaceChildren(passage(after, fused));
    byId("caption").textContent = data.captions[step];
  }

  // --- the pair table at step k: the counts after k merges, which pick merge k + 1 ------
  // (as the app's Animate page shows it beside step k)
  function showTable(step) {
    const table = byId("pairs");
    const body = table.tBodies[0];
    if (!data.tables) {
      table.hidden = true;
      byId("table-title").textContent = "Pair counts in the training corpus";
      byId("table-note").textContent = data.table_note;
      return;
    }
    const entry = data.tables[step];
    const next = step + 1;
    const ended = step >= data.merges;  // after the run's last merge
    byId("table-title").textContent = step === 0
      ? "Pair counts in the training corpus at the start: the top pair becomes merge 1"
      : ended
        ? "Pair counts after merge " + number(step) + ", the last: training stopped here"
        : "Pair counts after merge " + number(step) + ": the top pair becomes merge " + number(next);
    const rows = entry.rows.map((row, i) => {
      const tr = document.createElement("tr");
      if (row[3]) tr.className = "winner";
      const rank = document.createElement("td");
      rank.textContent = String(i + 1);
      const pair = document.createElement("td");
      const chips = document.createElement("span");
      chips.className = "bpe pair";
      chips.append(chip(row[0]), chip(row[1]));
      pair.appendChild(chips);
      const count = document.createElement("td");
      count.className = "count";
      count.textContent = number(row[2]);
      const note = document.createElement("td");
      const notes = [];
      if (row[3]) {
        notes.push(ended ? "would be next" : "next: merge " + number(next) + " → token " + (255 + next));
      }
      if (row[4]) notes.push("tied");
      note.textContent = notes.join(", ");
      tr.append(rank, pair, count, note);
      return tr;
    });
    body.replaceChildren(...rows);
    let note = entry.tie + " " + number(entry.distinct) + " different pairs in all.";
    if (entry.more_tied) note += " " + number(entry.more_tied) + " more tied pairs are not listed.";
    byId("table-note").textContent = note;
  }

  // --- the charts, as SVG: a line over steps 0..last and a marker at the step --------
  const SVG = "http://www.w3.org/2000/svg";
  const W = 480, H = 280, M = { left: 70, right: 18, top: 36, bottom: 48 };
  function svg(name, attrs, text) {
    const node = document.createElementNS(SVG, name);
    Object.entries(attrs || {}).forEach(([key, value]) => node.setAttribute(key, value));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function niceStep(span, count) {
    const raw = span / count;
    const base = Math.pow(10, Math.floor(Math.log10(raw)));
    const ratio = raw / base;
    return base * (ratio >= 7.5 ? 10 : ratio >= 3.5 ? 5 : ratio >= 1.5 ? 2 : 1);
  }
  function linearTicks(lo, hi, count) {
    const step = Math.max(1, niceStep(Math.max(hi - lo, 1), count));
    const start = Math.floor(lo / step) * step;
    const end = Math.ceil(hi / step) * step;
    const ticks = [];
    for (let v = start; v <= end + step / 2; v += step) ticks.push(v);
    if (ticks.length < 2) ticks.push(start + step);
    return ticks;
  }
  function logTicks(lo, hi) {
    const from = Math.floor(Math.log10(lo));
    const to = Math.max(Math.ceil(Math.log10(hi)), from + 1);
    const decades = to - from;
    const ticks = [];
    for (let e = from; e <= to; e++) {
      (decades > 3 ? [1] : [1, 2, 5]).forEach((m) => {
        const v = m * Math.pow(10, e);
        if (v <= Math.pow(10, to)) ticks.push(v);
      });
    }
    return ticks;
  }

  function makeChart(node, spec) {
    const points = spec.values
      .map((value, step) => [step, value])
      .filter((point) => point[1] !== null);
    const values = points.map((point) => point[1]);
    const xTicks = linearTicks(0, Math.max(last, 1), 5);
    const xMax = xTicks[xTicks.length - 1];
    const yTicks = spec.log
      ? logTicks(Math.min(...values), Math.max(...values))
      : linearTicks(Math.min(...values), Math.max(...values), 5);
    const yLo = yTicks[0], yHi = yTicks[yTicks.length - 1];
    const plotW = W - M.left - M.right, plotH = H - M.top - M.bottom;
    const x = (step) => M.left + (step / xMax) * plotW;
    const y = spec.log
      ? (v) => M.top + plotH - ((Math.log10(v) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * plotH
      : (v) => M.top + plotH - ((v - yLo) / (yHi - yLo || 1)) * plotH;
    const titleId = node.id + "-title", descId = node.id + "-desc";
    node.setAttribute("aria-labelledby", titleId + " " + descId);
    const desc = svg("desc", { id: descId });
    node.replaceChildren(svg("title", { id: titleId }, spec.title), desc);
    node.appendChild(svg("text", { x: W / 2, y: 20, "text-anchor": "middle", class: "chart-title" }, spec.title));
    yTicks.forEach((v) => {
      node.appendChild(svg("line", { x1: M.left, x2: W - M.right, y1: y(v), y2: y(v), class: "grid" }));
      node.appendChild(svg("text", { x: M.left - 6, y: y(v) + 4, "text-anchor": "end" }, number(v)));
    });
    xTicks.forEach((v) => {
      node.appendChild(svg("line", { x1: x(v), x2: x(v), y1: M.top + plotH, y2: M.top + plotH + 5, class: "axis" }));
      node.appendChild(svg("text", { x: x(v), y: M.top + plotH + 18, "text-anchor": "middle" }, number(v)));
    });
    node.appendChild(svg("line", { x1: M.left, x2: W - M.right, y1: M.top + plotH, y2: M.top + plotH, class: "axis" }));
    node.appendChild(svg("line", { x1: M.left, x2: M.left, y1: M.top, y2: M.top + plotH, class: "axis" }));
    node.appendChild(svg("text", { x: M.left + plotW / 2, y: H - 8, "text-anchor": "middle", class: "axis-title" }, spec.xTitle));
    const yMid = M.top + plotH / 2;
    node.appendChild(svg("text", { x: 16, y: yMid, "text-anchor": "middle", class: "axis-title", transform: "rotate(-90 16 " + yMid + ")" }, spec.yTitle));
    let path = "";
    points.forEach(([step, value], i) => {
      if (i === 0) path = "M" + x(step) + "," + y(value);
      else if (spec.stepAfter) path += "H" + x(step) + "V" + y(value);
      else path += "L" + x(step) + "," + y(value);
    });
    if (path) node.appendChild(svg("path", { d: path, class: "line" }));
    points.forEach(([step, value]) => {
      const dot = svg("circle", { cx: x(step), cy: y(value), r: 4, class: "point" });
      dot.appendChild(svg("title", {}, "Step " + number(step) + ": " + data.chart.merge[step] + " · " + spec.yTitle + ": " + number(value)));
      node.appendChild(dot);
    });
    const marker = svg("g", { "aria-hidden": "true" });
    node.appendChild(marker);
    return function mark(step) {
      const value = spec.values[step];
      desc.textContent = spec.describe(step, value);
      const rule = svg("line", { x1: x(step), x2: x(step), y1: M.top, y2: M.top + plotH, class: "marker" });
      marker.replaceChildren(rule);
      if (value !== null) marker.appendChild(svg("circle", { cx: x(step), cy: y(value), r: 6, class: "marker-dot" }));
    };
  }

  const markCount = makeChart(byId("count-chart"), {
    title: "How often the merged pair occurred",
    xTitle: "Step (merges so far)",
    yTitle: "Pair count (log scale)",
    values: data.chart.count,
    log: true,
    stepAfter: true,
    describe: (step, value) => value === null
      ? "Step 0: no pair merged yet."
      : "Step " + number(step) + ": the merged pair occurred " + number(value) + " times.",
  });
  const markLength = makeChart(byId("length-chart"), {
    title: "Corpus length after each step",
    xTitle: "Step (merges so far)",
    yTitle: "Tokens in the corpus",
    values: data.chart.tokens,
    log: false,
    stepAfter: false,
    describe: (step, value) => "Step " + number(step) + ": the corpus is " + tokensWord(value) + ".",
  });

  // --- the step on screen, its controls, the URL hash ---------------------------------
  let current = -1;
  let timer = null;
  const slider = byId("step");
  slider.max = String(last);

  function show(step) {
    step = Math.max(0, Math.min(last, step));
    current = step;
    slider.value = String(step);
    slider.setAttribute("aria-valuetext", "Step " + step + " of " + last);
    byId("step-label").textContent = "Step " + number(step) + " of " + number(last);
    const card = byId("card");
    card.innerHTML = data.cards[step]; // pre-escaped in Python (merge_card_html)
    card.hidden = step === 0;
    byId("narration").textContent = data.narration[step];
    showPassages(step);
    showTable(step);
    markCount(step);
    markLength(step);
    byId("first").disabled = byId("back").disabled = step === 0;
    byId("next").disabled = byId("last").disabled = step === last;
    const hash = "#step=" + step;
    if (location.hash !== hash) {
      try {
        history.replaceState(null, "", hash);
      } catch (error) {
        location.replace(hash);
      }
    }
  }

  function play() {
    if (current >= last) show(0);
    byId("play").textContent = "⏸ Pause";
    const speed = Number(byId("speed").value);
    timer = setInterval(() => {
      if (current >= last) pause();
      else show(current + 1);
    }, 1000 / speed);
  }
  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    byId("play").textContent = "▶ Play";
  }
  const toggle = () => (timer === null ? play() : pause());
  const stepTo = (step) => {
    pause();
    show(step);
  };

  byId("play").addEventListener("click", toggle);
  byId("first").addEventListener("click", () => stepTo(0));
  byId("back").addEventListener("click", () => stepTo(current - 1));
  byId("next").addEventListener("click", () => stepTo(current + 1));
  byId("last").addEventListener("click", () => stepTo(last));
  slider.addEventListener("input", () => stepTo(Number(slider.value)));
  byId("show-ids").addEventListener("change", () => show(current));
  byId("speed").addEventListener("change", () => {
    if (timer !== null) {
      pause();
      play();
    }
  });
  window.addEventListener("hashchange", () => {
    const step = stepInHash();
    if (step !== null && step !== current) stepTo(step);
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (tag === "BUTTON" && (event.key === " " || event.key === "Enter")) return;
    const moves = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last };
    if (event.key in moves) stepTo(moves[event.key]);
    else if (event.key === " ") toggle();
    else return;
    event.preventDefault();
  });

  function stepInHash() {
    const match = /step=(\d+)/.exec(location.hash);
    return match ? Math.min(Number(match[1]), last) : null;
  }
  show(stepInHash() || 0);
})();
