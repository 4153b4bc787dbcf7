"use strict";
(function () {
  var data = JSON.parse(document.getElementById("tuicast-data").textContent);
  // Failures: j / k move between them.
  var failures = Array.prototype.slice.call(document.querySelectorAll(".failure"));
  var current = -1;
  function focusFailure(i) {
    if (!failures.length) return;
    i = Math.max(0, Math.min(failures.length - 1, i));
    if (current >= 0) failures[current].classList.remove("current");
    current = i;
    failures[i].classList.add("current");
    failures[i].focus({ preventScroll: true });
    failures[i].scrollIntoView({ block: "start" });
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" && t.type !== "checkbox" && t.type !== "range")) return;
    if (e.key === "j") focusFailure(current + 1);
    else if (e.key === "k") focusFailure(current - 1);
  });
  // "differences only".
  Array.prototype.forEach.call(document.querySelectorAll("input.only-d"), function (box) {
    box.addEventListener("change", function () {
      box.closest(".snap").classList.toggle("only", box.checked);
    });
  });

  // "actual over expected": one screen on the other; `o` flips which one shows (a blink
  // comparison, where a moved cell jumps).
  Array.prototype.forEach.call(document.querySelectorAll("input.overlay"), function (box) {
    box.addEventListener("change", function () {
      var snap = box.closest(".snap");
      snap.classList.toggle("overlay", box.checked);
      snap.classList.remove("flipped");
    });
  });
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.key !== "o" || (t && t.tagName === "INPUT" && t.type !== "checkbox" && t.type !== "range")) return;
    Array.prototype.forEach.call(document.querySelectorAll(".snap.overlay"), function (snap) {
      snap.classList.toggle("flipped");
    });
  });

  // Players: frames hold the rows that changed; the page keeps the current screen.
  function Player(el, p) {
    this.el = el; this.p = p; this.index = -1; this.rows = []; this.cols = 0; this.timer = null;
    this.screen = el.querySelector(".screen");
    this.seek = el.querySelector(".seek");
    this.clock = el.querySelector(".clock");
    this.playButton = el.querySelector(".play");
    var self = this;
    var timeline = el.querySelector(".timeline");
    var marks = el.querySelector(".marks");
    var total = p.duration > 0 ? p.duration : 1;
    this.now = document.createElement("div"); this.now.className = "now"; timeline.appendChild(this.now);
    this.total = total;
    this.markButtons = p.markers.map(function (m) {
      var tick = document.createElement("div");
      tick.className = "tick"; tick.style.left = (100 * m.t / total) + "%"; tick.title = m.name;
      tick.addEventListener("click", function () { self.pause(); self.show(m.frame); });
      timeline.appendChild(tick);
      var b = document.createElement("button");
      b.type = "button"; b.textContent = m.name; b.className = "mark";
      b.addEventListener("click", function () { self.pause(); self.show(m.frame); });
      marks.appendChild(b);
      return b;
    });
    el.querySelector(".next").addEventListener("click", function () { self.pause(); self.show(self.index + 1); });
    el.querySelector(".prev").addEventListener("click", function () { self.pause(); self.show(self.index - 1); });
    this.playButton.addEventListener("click", function () { if (self.timer) self.pause(); else self.play(); });
    this.seek.addEventListener("input", function () { self.pause(); self.show(parseInt(self.seek.value, 10)); });
    this.show(0);
  }
  Player.prototype.apply = function (f) {
    if (f.size) {
      this.cols = f.size[0];
      this.rows = [];
      for (var r = 0; r < f.size[1]; r++) this.rows.push([]);
    }
    if (f.moved) {
      var before = this.rows.slice();
      for (var m = 0; m < f.moved.length; m++) this.rows[f.moved[m][0]] = before[f.moved[m][1]];
    }
    for (var i = 0; i < f.rows.length; i++) this.rows[f.rows[i][0]] = f.rows[i][1];
    this.cursor = f.cursor;
  };
  Player.prototype.show = function (n) {
    var frames = this.p.frames;
    if (!frames.length) return;
    n = Math.max(0, Math.min(frames.length - 1, n));
    if (n < this.index || this.index < 0) { this.index = -1; }
    for (var i = this.index + 1; i <= n; i++) this.apply(frames[i]);
    this.index = n;
    this.draw();
  };
  Player.prototype.draw = function () {
    var styles = this.p.styles, screen = this.screen;
    while (screen.firstChild) screen.removeChild(screen.firstChild);
    screen.style.width = this.cols + "ch";
    for (var r = 0; r < this.rows.length; r++) {
      var row = document.createElement("div");
      row.className = "row"; row.setAttribute("data-row", String(r + 1));
      var runs = this.rows[r], col = 0;
      for (var k = 0; k < runs.length; k++) {
        var s = document.createElement("span"), cells = runs[k][2];
        s.textContent = runs[k][0];
        if (styles[runs[k][1]]) s.style.cssText = styles[runs[k][1]];
        if (cells > 0) {
          // Placed at its cell, blanks in the flow where it stands (see html.rs).
          var sp = document.createElement("span");
          sp.className = cells === 2 ? "sp two" : "sp";
          row.appendChild(sp);
          s.className = cells === 2 ? "w" : "g";
          s.style.left = col + "ch";
          col += cells;
        } else {
          col += Array.from(runs[k][0]).length;
        }
        row.appendChild(s);
      }
      screen.appendChild(row);
    }
    if (this.cursor) {
      var c = document.createElement("div");
      c.className = "cursor";
      c.style.top = "calc(4px + " + this.cursor[0] + " * var(--line))";
      c.style.left = "calc(4px + " + this.cursor[1] + "ch)";
      screen.appendChild(c);
    }
    var f = this.p.frames[this.index];
    this.seek.value = String(this.index);
    this.now.style.left = (100 * f.t / this.total) + "%";
    var at = null;
    for (var m = 0; m < this.p.markers.length; m++) {
      var here = this.p.markers[m].frame === this.index;
      this.markButtons[m].classList.toggle("at", here);
      if (here) at = this.p.markers[m].name;
    }
    this.el.setAttribute("data-frame", String(this.index));
    if (at === null) this.el.removeAttribute("data-checkpoint"); else this.el.setAttribute("data-checkpoint", at);
    this.clock.textContent = f.t.toFixed(3) + "s / " + this.p.duration.toFixed(3) + "s · frame " +
      (this.index + 1) + "/" + this.p.frames.length + (at === null ? "" : " · checkpoint " + at);
  };
  Player.prototype.play = function () {
    var self = this;
    if (this.index >= this.p.frames.length - 1) this.show(0);
    this.playButton.textContent = "pause";
    function tick() {
      var frames = self.p.frames;
      if (self.index >= frames.length - 1) { self.pause(); return; }
      var wait = (frames[self.index + 1].t - frames[self.index].t) * 1000;
      self.timer = setTimeout(function () { self.show(self.index + 1); tick(); }, Math.max(0, Math.min(wait, 2000)));
    }
    tick();
  };
  Player.prototype.pause = function () {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.playButton.textContent = "play";
  };
  Player.prototype.jump = function (name) {
    for (var m = 0; m < this.p.markers.length; m++) {
      if (this.p.markers[m].name === name) { this.show(this.p.markers[m].frame); return true; }
    }
    return false;
  };

  var players = Array.prototype.map.call(document.querySelectorAll(".player"), function (el) {
    return new Player(el, data.players[parseInt(el.getAttribute("data-index"), 10)]);
  });
  // #cast=STEM&checkpoint=NAME shows that checkpoint's screen in the cast's player.
  function fromFragment() {
    var params = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) {
        try { params[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)); } catch (e) { /* ignored */ }
      }
    });
    if (params.cast === undefined) return;
    players.forEach(function (pl) {
      if (pl.p.stem === params.cast) {
        if (params.checkpoint !== undefined) pl.jump(params.checkpoint);
        pl.el.scrollIntoView({ block: "start" });
      }
    });
  }
  window.addEventListener("hashchange", fromFragment);
  fromFragment();
})();
