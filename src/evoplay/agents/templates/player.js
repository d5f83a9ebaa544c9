/*@HEAD@*/
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.EvoplayPlayer = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // ------------------------------------------------------------------------------------------------------------
  // The levels: each one's evaluation, search and budget, as evoplay's best.json of that level sets them.
  // ------------------------------------------------------------------------------------------------------------
/*@LEVELS@*/

  // ------------------------------------------------------------------------------------------------------------
  // The host game: the interface the player calls (docs/your-game.md, "A player for your host game").
  // ------------------------------------------------------------------------------------------------------------
/*@HOST@*/

  // ------------------------------------------------------------------------------------------------------------
  // The player: evoplay's alpha-beta (evoplay.search.minimax) and move choice (FeatureAgent), line by line.
  // ------------------------------------------------------------------------------------------------------------
  var TERMINAL_SCALE = 1e9;
  var EVAL_LIMIT = 1e8;
  var MAX_DEPTH = 40; // the plies a budget may deepen to
  var TABLE_LIMIT = 400000; // transposition table entries before it is cleared
  var EXACT = 0, LOWER = 1, UPPER = 2;
  var OUT_OF_BUDGET = {};
  var SMALLEST = Math.pow(2, -1074);

  function clip(v) {
    if (v !== v) return 0.0;
    if (v > EVAL_LIMIT) return EVAL_LIMIT;
    if (v < -EVAL_LIMIT) return -EVAL_LIMIT;
    return v;
  }

  // What the levels' evaluations call: evoplay's GP functions (evoplay.gp.export) and the linear evaluation.
  function div(a, b) { return Math.abs(b) >= 1e-9 ? a / b : 1.0; }
  function min2(a, b) { return a < b ? a : b; }
  function max2(a, b) { return a > b ? a : b; }
  function ifLt(a, b, c, d) { return a < b ? c : d; }
  function wrap(x, n) {
    if (!(Math.abs(x) < 9007199254740992)) return 0;
    var k = Math.floor(x) % n;
    return k < 0 ? k + n : k;
  }
  function linear(weights) {
    return function (f) {
      var v = 0.0;
      for (var j = 0; j < weights.length; j++) v += weights[j] * f[j];
      return clip(v);
    };
  }
  function withBase(base, program) {  // a program added to a fitted linear evaluation (a NaN program adds 0)
    return function (f) {
      var p = program(f);
      if (p !== p) p = 0.0;
      var v = 0.0;
      for (var j = 0; j < base.length; j++) v += base[j] * f[j];
      return clip(v + p);
    };
  }

  // The largest double below x (numpy.nextafter(x, -inf)): the root's window opens just below the best so far.
  function below(x) {
    if (x !== x || x === -Infinity) return x;
    if (x === Infinity) return Number.MAX_VALUE;
    if (x === 0) return -SMALLEST;
    var m = Math.abs(x);
    var e = Math.floor(Math.log(m) / Math.LN2);
    while (Math.pow(2, e) > m) e -= 1;
    while (Math.pow(2, e + 1) <= m) e += 1;
    var step = x > 0 && m === Math.pow(2, e) ? Math.pow(2, e - 53) : Math.pow(2, e - 52);
    if (step < SMALLEST) step = SMALLEST;
    return x - step;
  }

  // Ties between equally valued moves: the Park-Miller generator (minstd, multiplier 48271), seeded by restart.
  function TieDraw(seed) {
    var m = 2147483646;
    this.state = (((seed % m) + m) % m) + 1;
  }
  TieDraw.prototype.below = function (n) {
    this.state = (this.state * 48271) % 2147483647;
    return Math.floor((this.state * n) / 2147483647);
  };

  // Sort items in place by keyOf(item), highest first, equals kept in order (Python's stable sort).
  function sortDescending(items, keyOf) {
    for (var i = 1; i < items.length; i++) {
      var item = items[i], key = keyOf(item), j = i - 1;
      while (j >= 0 && keyOf(items[j]) < key) {
        items[j + 1] = items[j];
        j -= 1;
      }
      items[j + 1] = item;
    }
  }

  // --- the numbers the evaluation reads (evoplay.agents.feature_view) ----------------------------------------
  function freeFeatures(host, state, player) {
    var terminal = host.isTerminal(state);
    var mover = terminal ? -1 : host.currentPlayer(state);
    var mine = mover === player;
    var count = terminal ? 0 : host.legalMoves(state).length;
    var scores = host.scores ? host.scores(state) : host.returns(state);
    var others = -Infinity;
    for (var p = 0; p < scores.length; p++) if (p !== player && scores[p] > others) others = scores[p];
    return [player, mine ? 1.0 : 0.0, mine ? count : 0.0, mine || terminal ? 0.0 : count, scores[player],
            others === -Infinity ? 0.0 : others];
  }

  function pairCounts(f, planes, rows, columns, out) {
    var dirs = [[0, 1], [1, 0], [1, 1], [1, -1]];
    for (var d = 0; d < 4; d++) {
      var dr = dirs[d][0], dc = dirs[d][1];
      for (var a = 0; a < planes; a++) {
        for (var b = a; b < planes; b++) {
          var total = 0.0;
          for (var r = 0; r < rows; r++) {
            for (var c = 0; c < columns; c++) {
              var r2 = r + dr, c2 = c + dc;
              if (r2 >= 0 && r2 < rows && c2 >= 0 && c2 < columns) {
                total += f[(a * rows + r) * columns + c] * f[(b * rows + r2) * columns + c2];
                if (a !== b) total += f[(b * rows + r) * columns + c] * f[(a * rows + r2) * columns + c2];
              }
            }
          }
          out.push(total);
        }
      }
    }
  }

  function lineSlots(codes, length) {
    var slotOf = [], count = 0;
    for (var index = 0; index < Math.pow(codes, length); index++) {
      var reverse = 0;
      for (var i = 0; i < length; i++) reverse += (Math.floor(index / Math.pow(codes, i)) % codes) * Math.pow(codes, length - 1 - i);
      if (reverse < index) slotOf.push(slotOf[reverse]);
      else slotOf.push(count++);
    }
    return {slotOf: slotOf, count: count};
  }

  function lineCounts(f, planes, rows, columns, codes, length, slots, out) {
    function reading(r, c) {
      for (var k = 0; k < planes; k++) if (f[(k * rows + r) * columns + c] > 0.5) return k;
      return codes - 1;
    }
    var dirs = [[0, 1], [1, 0], [1, 1], [1, -1]];
    for (var d = 0; d < 4; d++) {
      var dr = dirs[d][0], dc = dirs[d][1], counts = [];
      for (var s = 0; s < slots.count; s++) counts.push(0.0);
      for (var r = 0; r < rows; r++) {
        for (var c = 0; c < columns; c++) {
          var r2 = r + dr * (length - 1), c2 = c + dc * (length - 1);
          if (r2 >= 0 && r2 < rows && c2 >= 0 && c2 < columns) {
            var index = 0;
            for (var i = 0; i < length; i++) index += reading(r + dr * i, c + dc * i) * Math.pow(codes, i);
            counts[slots.slotOf[index]] += 1.0;
          }
        }
      }
      for (var k = 0; k < counts.length; k++) out.push(counts[k]);
    }
  }

  // One position's row from player's side: the game's features, the free features, the board counts, scaled.
  function featureRow(host, level, state, player) {
    var own = host.features(state, player);
    if (own.length !== level.own) {
      throw new Error("features(state, " + player + ") gave " + own.length + " numbers; the player reads " +
                      level.own + " (FEATURES)");
    }
    var row = [];
    for (var i = 0; i < own.length; i++) row.push(+own[i]);
    if (level.free) {
      var free = freeFeatures(host, state, player);
      for (var j = 0; j < free.length; j++) row.push(free[j]);
    }
    var board = level.board;
    if (board) {
      if (board.lines) {
        if (!level.slots) level.slots = lineSlots(board.codes, board.lines);
        lineCounts(row, board.planes, board.rows, board.columns, board.codes, board.lines, level.slots, row);
      }
      else pairCounts(row, board.planes, board.rows, board.columns, row);
    }
    if (level.scales) for (var k = 0; k < row.length; k++) row[k] = row[k] * level.scales[k];
    return row;
  }

  // --- the search: evoplay.search.minimax, with the feature player's batched leaves ----------------------------
  function Search(host, level, player, depth, budget, table, now) {
    this.host = host;
    this.level = level;
    this.player = player;
    this.depth = depth;
    this.budgeted = budget !== null;
    this.nodes = 0;
    this.nodeLimit = budget && budget.nodes ? budget.nodes : Infinity;
    this.deadline = budget && budget.ms ? now() + budget.ms : Infinity;
    this.now = now;
    this.table = budget ? table : null;
    this.history = budget ? {} : null;
    this.completed = 0;
  }

  Search.prototype.spend = function (count) {
    this.nodes += count;
    if (this.completed && (this.nodes > this.nodeLimit || (this.deadline !== Infinity && this.now() > this.deadline))) {
      throw OUT_OF_BUDGET;
    }
  };

  Search.prototype.terminal = function (state, depth) {
    return this.host.returns(state)[this.player] * (TERMINAL_SCALE + depth);
  };

  Search.prototype.leaf = function (state) {
    return this.level.evaluate(featureRow(this.host, this.level, state, this.player));
  };

  Search.prototype.child = function (state, action) {
    var c = this.host.clone(state);
    this.host.apply(c, action);
    return c;
  };

  Search.prototype.leafValues = function (children) {
    this.spend(children.length);
    var values = [];
    for (var i = 0; i < children.length; i++) {
      values.push(this.host.isTerminal(children[i]) ? this.terminal(children[i], 0) : this.leaf(children[i]));
    }
    return values;
  };

  Search.prototype.ordered = function (actions, first) {
    var history = this.history;
    actions = actions.slice();
    sortDescending(actions, function (a) { return history[a] || 0; });
    if (first !== null && actions[0] !== first && actions.indexOf(first) >= 0) {
      actions.splice(actions.indexOf(first), 1);
      actions.unshift(first);
    }
    return actions;
  };

  Search.prototype.value = function (state, depth, alpha, beta) {
    var host = this.host;
    this.spend(1);
    if (host.isTerminal(state)) return this.terminal(state, depth);
    if (depth <= 0) return this.leaf(state);
    var maximise = host.currentPlayer(state) === this.player;
    var actions = host.legalMoves(state);
    var i;
    if (depth === 1) {
      var children = [];
      for (i = 0; i < actions.length; i++) children.push(this.child(state, actions[i]));
      var values = this.leafValues(children), best1 = maximise ? -Infinity : Infinity;
      for (i = 0; i < values.length; i++) {
        if (maximise ? values[i] > best1 : values[i] < best1) best1 = values[i];
      }
      return best1;
    }
    var key = null;
    if (this.table !== null) {
      key = host.key ? host.key(state) : null;
      var entry = key !== null ? this.table.map.get(key) : undefined;
      if (entry !== undefined) {
        if (entry[0] >= depth && (entry[2] === EXACT || (entry[2] === LOWER && entry[1] >= beta) ||
                                  (entry[2] === UPPER && entry[1] <= alpha))) {
          return entry[1];
        }
        actions = this.ordered(actions, entry[3]);
      } else {
        actions = this.ordered(actions, null);
      }
    }
    var alpha0 = alpha, beta0 = beta;
    var best = maximise ? -Infinity : Infinity;
    var bestAction = actions.length ? actions[0] : null;
    for (i = 0; i < actions.length; i++) {
      var a = actions[i];
      var v = this.value(this.child(state, a), depth - 1, alpha, beta);
      if (maximise) {
        if (v > best) { best = v; bestAction = a; }
        if (best > alpha) alpha = best;
      } else {
        if (v < best) { best = v; bestAction = a; }
        if (best < beta) beta = best;
      }
      if (alpha >= beta) {
        if (this.history !== null) this.history[a] = (this.history[a] || 0) + depth * depth;
        break;
      }
    }
    if (key !== null) {
      if (this.table.map.size >= TABLE_LIMIT) this.table.map.clear();
      var flag = best <= alpha0 ? UPPER : best >= beta0 ? LOWER : EXACT;
      this.table.map.set(key, [depth, best, flag, bestAction]);
    }
    return best;
  };

  Search.prototype.iteration = function (children, depth) {
    if (depth === 1) return this.leafValues(children);
    var values = [], best = -Infinity;
    for (var i = 0; i < children.length; i++) {
      // the window opens just below the best so far: a tie comes back exact, a worse move as a bound below it
      var alpha = best > -Infinity ? below(best) : -Infinity;
      var v = this.value(children[i], depth - 1, alpha, Infinity);
      values.push(v);
      if (v > best) best = v;
    }
    return values;
  };

  Search.prototype.root = function (state, actions) {
    var children = [], i;
    for (i = 0; i < actions.length; i++) children.push(this.child(state, actions[i]));
    if (!this.budgeted) return this.iteration(children, this.depth);
    var order = [], values = [];
    for (i = 0; i < actions.length; i++) { order.push(i); values.push(0.0); }
    for (var depth = 1; depth <= this.depth; depth++) {
      var found;
      try {
        found = this.iteration(order.map(function (k) { return children[k]; }), depth);
      } catch (err) {
        if (err === OUT_OF_BUDGET) break;
        throw err;
      }
      for (i = 0; i < order.length; i++) values[order[i]] = found[i];
      this.completed = depth;
      sortDescending(order, function (k) { return values[k]; });
      var known = true;
      for (i = 0; i < values.length; i++) if (Math.abs(values[i]) < TERMINAL_SCALE) { known = false; break; }
      if (known) break;
    }
    return values;
  };

  // --- the player --------------------------------------------------------------------------------------------
  function levelNamed(name) {
    var chosen = name === undefined || name === null ? DEFAULT_LEVEL : name;
    for (var i = 0; i < LEVELS.length; i++) if (LEVELS[i].name === chosen) return LEVELS[i];
    throw new Error("no level " + JSON.stringify(chosen) + "; the levels are " +
                    LEVELS.map(function (l) { return l.name; }).join(", "));
  }

  function checkHost(host) {
    var needed = ["currentPlayer", "isTerminal", "legalMoves", "clone", "apply", "returns", "features"];
    for (var i = 0; i < needed.length; i++) {
      if (typeof host[needed[i]] !== "function") throw new Error("the host game has no " + needed[i] + "(...)");
    }
    if (USES_TABLE && typeof host.key !== "function") {
      throw new Error("this player keeps a transposition table: give the host game key(state), equal for equal " +
                      "positions only");
    }
    if (host.featureNames) {
      for (var j = 0; j < FEATURES.length; j++) {
        if (host.featureNames[j] !== FEATURES[j]) {
          throw new Error("the host's feature " + j + " is " + JSON.stringify(host.featureNames[j]) +
                          ", the player reads " + JSON.stringify(FEATURES[j]) + " there");
        }
      }
    }
  }

  function now() {
    return typeof performance !== "undefined" ? performance.now() : Date.now();
  }

  // A player of one level: options.level (default: the top level), options.seed (its tie draws), options.nodes
  // and options.ms (a budget a move instead of the level's; 0 turns that limit off), options.now (a clock in ms).
  function createPlayer(host, options) {
    options = options || {};
    checkHost(host);
    var level = levelNamed(options.level);
    var nodes = options.nodes === undefined ? level.nodes : options.nodes;
    var ms = options.ms === undefined ? level.ms : options.ms;
    var budget = nodes > 0 || ms > 0 ? {nodes: nodes, ms: ms} : null;
    var depth = budget ? MAX_DEPTH : level.depth;
    var clock = options.now || now;
    var ties = new TieDraw(options.seed || 0);
    var table = {map: new Map()};

    function values(state, player, actions) {
      if (budget || level.policy === "search") {
        return new Search(host, level, player, depth, budget, table, clock).root(state, actions);
      }
      var out = [];
      for (var i = 0; i < actions.length; i++) {  // the policy "move": each move's after-state from its side
        var c = host.clone(state);
        host.apply(c, actions[i]);
        out.push(host.isTerminal(c) ? host.returns(c)[player] * TERMINAL_SCALE
                                    : level.evaluate(featureRow(host, level, c, player)));
      }
      return out;
    }

    return {
      level: level.name,
      // a new game: the tie draws from seed, an empty transposition table (seat: kept for symmetry with evoplay)
      restart: function (seed, seat) {
        ties = new TieDraw(seed || 0);
        table.map.clear();
      },
      // the move it plays at state (its turn)
      choose: function (state) {
        var actions = host.legalMoves(state);
        if (actions.length === 1) return actions[0];
        var vals = values(state, host.currentPlayer(state), actions);
        var best = -Infinity, top = [], i;
        for (i = 0; i < vals.length; i++) if (vals[i] > best) best = vals[i];
        for (i = 0; i < vals.length; i++) if (vals[i] === best) top.push(i);
        return actions[top.length === 1 ? top[0] : top[ties.below(top.length)]];
      }
    };
  }

  var defaultPlayers = {};

  // The move of the included host game's player at state, of the level named (default the top one).
  function chooseMove(state, level) {
    var name = levelNamed(level).name;
    if (!GAME) throw new Error("this file has no host game of its own: use createPlayer(yourHost, {level: ...})");
    if (!defaultPlayers[name]) defaultPlayers[name] = createPlayer(GAME, {level: name});
    return defaultPlayers[name].choose(state);
  }

  return {
    LEVELS: LEVELS.map(function (l) { return l.name; }),
    DEFAULT_LEVEL: DEFAULT_LEVEL,
    FEATURES: FEATURES,
    GAME: GAME,
    makeGame: makeGame,
    createPlayer: createPlayer,
    chooseMove: chooseMove,
    below: below,
    TieDraw: TieDraw
  };
});
