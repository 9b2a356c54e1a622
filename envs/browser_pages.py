"""The three pages of AndroidWorld's browser tasks, written here from their description
(``android_world/task_evals/single/browser.py``; ../shared/reference/androidworld-remaining.md §7), with
``%%SEED%%`` replaced by the task's seed. All three share AndroidWorld's LCG: s <- (1664525 s + 1013904223) mod
2^32, rng() = s / 2^32. Each reports success by showing an element whose text is exactly ``Success!``.

The Color Challenge puts its controls (palette, Clear, Submit) and its result above the canvas, as a drawing app
puts its tools above the drawing: the canvas takes every touch (it draws, so a drag on it cannot scroll the page),
and on a phone whose screen is shorter than the page the controls stay on screen with the top of the canvas.

``lcg`` and ``maze`` compute in Python what the pages compute in JavaScript, for the oracles.
"""

from __future__ import annotations

_HEAD = """<!DOCTYPE html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:16px}} button{{font-size:18px;margin:4px;padding:8px 14px}}</style>
<script>var seed = %%SEED%%; function rng() {{ seed = (Math.imul(1664525, seed) + 1013904223) >>> 0;
return seed / 4294967296; }}</script></head>"""

MAZE = _HEAD.format(title="Maze Puzzle") + """<body><h1>Maze Puzzle</h1>
<style>#maze{display:grid;grid-template-columns:repeat(4,56px);gap:2px;margin-bottom:12px}
.cell{width:56px;height:56px;display:flex;align-items:center;justify-content:center;font-size:28px;
background:#fff;border:1px solid #ccc}.wall{background:#000}.goal{background:#0a0}</style>
<div id="maze"></div>
<div><button id="up">Up</button></div>
<div><button id="left">Left</button><button id="right">Right</button></div>
<div><button id="down">Down</button></div>
<script>
var N = 4, open = [], dirs = [[0,-1,'up'],[0,1,'down'],[-1,0,'left'],[1,0,'right']];
for (var y = 0; y < N; y++) { open.push([false,false,false,false]); }
var stack = [[0,0]];
while (stack.length) {
  var c = stack.pop(); open[c[1]][c[0]] = true;
  if (c[0] === N-1 && c[1] === N-1) break;
  for (var i = 3; i > 0; i--) { var j = Math.floor(rng() * (i + 1)); var t = dirs[i]; dirs[i] = dirs[j]; dirs[j] = t; }
  for (var k = 0; k < 4; k++) { var nx = c[0] + dirs[k][0], ny = c[1] + dirs[k][1];
    if (nx >= 0 && ny >= 0 && nx < N && ny < N && !open[ny][nx]) stack.push([nx, ny]); }
}
var px = 0, py = 0;
function draw() {
  var m = document.getElementById('maze'); m.innerHTML = '';
  for (var y = 0; y < N; y++) for (var x = 0; x < N; x++) {
    var d = document.createElement('div');
    d.className = 'cell' + (open[y][x] ? '' : ' wall') + (x === N-1 && y === N-1 ? ' goal' : '');
    if (x === px && y === py) d.textContent = 'X';
    m.appendChild(d);
  }
}
function move(dx, dy) {
  var nx = px + dx, ny = py + dy;
  if (nx < 0 || ny < 0 || nx >= N || ny >= N || !open[ny][nx]) return;
  px = nx; py = ny; draw();
  if (px === N-1 && py === N-1) document.body.innerHTML = '<h1>Success!</h1>';
}
document.getElementById('up').onclick = function() { move(0, -1); };
document.getElementById('down').onclick = function() { move(0, 1); };
document.getElementById('left').onclick = function() { move(-1, 0); };
document.getElementById('right').onclick = function() { move(1, 0); };
draw();
</script></body></html>"""

MULTIPLY = _HEAD.format(title="Memory Task") + """<body><h1>Memory Task</h1>
<p id="number"></p><button id="click">Click Me</button>
<div id="form" style="display:none"><input id="answer" type="number" placeholder="Product">
<button id="submit">Submit</button></div><div id="result"></div>
<script>
var product = 1, clicks = 0;
function show() { var n = Math.floor(rng() * 10) + 1; product *= n; document.getElementById('number').textContent = n; }
show();
document.getElementById('click').onclick = function() {
  clicks++;
  if (clicks < 5) { show(); return; }
  document.getElementById('number').style.display = 'none';
  document.getElementById('click').style.display = 'none';
  document.getElementById('form').style.display = 'block';
};
document.getElementById('submit').onclick = function() {
  if (parseInt(document.getElementById('answer').value) === product)
    document.getElementById('result').innerHTML = '<h2>Success!</h2>';
};
</script></body></html>"""

PALETTE = ("#ff0000", "#00ff00", "#0000ff", "#ffff00", "#ff00ff", "#00ffff", "#800000", "#008000", "#000080",
           "#808000", "#800080", "#008080", "#ffa500", "#ff1493", "#9932cc", "#20b2aa", "#4b0082", "#00ff7f",
           "#ff6347", "#00ced1", "#9400d3", "#f0e68c", "#ff8c00", "#228b22")

DRAW = _HEAD.format(title="Color Challenge") + """<body><h1>Color Challenge</h1>
<div id="targets"></div><div id="palette"></div>
<div><button id="clear">Clear</button><button id="submit">Submit</button></div><div id="result"></div>
<canvas id="canvas" width="300" height="300" style="border:1px solid #000;touch-action:none" aria-label="Canvas">
</canvas>
<script>
var palette = """ + str(list(PALETTE)).replace("'", '"') + """;
var remaining = palette.slice(), targets = [];
for (var i = 0; i < 3; i++) { var k = Math.floor(rng() * remaining.length); targets.push(remaining.splice(k, 1)[0]); }
targets.forEach(function(c) { var s = document.createElement('span');
  s.style.cssText = 'display:inline-block;width:40px;height:40px;margin:4px;background:' + c;
  s.setAttribute('role', 'img'); s.setAttribute('aria-label', c); document.getElementById('targets').appendChild(s); });
var color = '#000000', canvas = document.getElementById('canvas'), ctx = canvas.getContext('2d'), last = null;
palette.forEach(function(c) { var b = document.createElement('button'); b.setAttribute('aria-label', c);
  b.style.cssText = 'width:36px;height:36px;padding:0;background:' + c; b.onclick = function() { color = c; };
  document.getElementById('palette').appendChild(b); });
function at(e) { var r = canvas.getBoundingClientRect(), p = e.touches ? e.touches[0] : e;
  return [(p.clientX - r.left) * canvas.width / r.width, (p.clientY - r.top) * canvas.height / r.height]; }
function crisp(v) { return Math.floor(v) + 0.5; }  // a 1 px line through pixel centres keeps its colour exact
function line(p) { ctx.strokeStyle = color; ctx.lineWidth = 1; ctx.beginPath();
  ctx.moveTo(crisp(last[0]), crisp(last[1])); ctx.lineTo(crisp(p[0]), crisp(p[1])); ctx.stroke(); last = p; }
canvas.addEventListener('mousedown', function(e) { last = at(e); });
canvas.addEventListener('mousemove', function(e) { if (last) line(at(e)); });
window.addEventListener('mouseup', function() { last = null; });
canvas.addEventListener('touchstart', function(e) { e.preventDefault(); last = at(e); });
canvas.addEventListener('touchmove', function(e) { e.preventDefault(); if (last) line(at(e)); });
canvas.addEventListener('touchend', function() { last = null; });
document.getElementById('clear').onclick = function() { ctx.clearRect(0, 0, canvas.width, canvas.height); };
function hex(v) { return ('0' + v.toString(16)).slice(-2); }
document.getElementById('submit').onclick = function() {
  var data = ctx.getImageData(0, 0, canvas.width, canvas.height).data, seen = {};
  for (var i = 0; i < data.length; i += 4) seen['#' + hex(data[i]) + hex(data[i+1]) + hex(data[i+2])] = true;
  if (targets.every(function(c) { return seen[c]; }))
    document.getElementById('result').innerHTML = '<h2>Success!</h2>';
};
</script></body></html>"""


def lcg(seed: int):
    """AndroidWorld's page generator: yields rng() values from ``seed``."""
    state = seed
    while True:
        state = (1664525 * state + 1013904223) % 2**32
        yield state / 2**32


def maze(seed: int, size: int = 4) -> set[tuple[int, int]]:
    """The open cells ``(x, y)`` of the maze the page generates from ``seed``."""
    rng, opened = lcg(seed), set()
    dirs = [(0, -1), (0, 1), (-1, 0), (1, 0)]
    stack = [(0, 0)]
    while stack:
        cell = stack.pop()
        opened.add(cell)
        if cell == (size - 1, size - 1):
            break
        for i in range(3, 0, -1):
            j = int(next(rng) * (i + 1))
            dirs[i], dirs[j] = dirs[j], dirs[i]
        for dx, dy in dirs:
            nx, ny = cell[0] + dx, cell[1] + dy
            if 0 <= nx < size and 0 <= ny < size and (nx, ny) not in opened:
                stack.append((nx, ny))
    return opened


def draw_targets(seed: int) -> list[str]:
    """The three target colours the Color Challenge page draws from ``seed``."""
    rng, remaining = lcg(seed), list(PALETTE)
    return [remaining.pop(int(next(rng) * len(remaining))) for _ in range(3)]
