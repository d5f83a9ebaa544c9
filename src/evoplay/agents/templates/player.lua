--@HEAD@

local TERMINAL_SCALE = 1e9
local EVAL_LIMIT = 1e8
local MAX_DEPTH = 40 -- the plies a budget may deepen to
local TABLE_LIMIT = 400000 -- transposition table entries before it is cleared
local EXACT, LOWER, UPPER = 0, 1, 2
local OUT_OF_BUDGET = {}
local SMALLEST = 2 ^ -1074
local INF = math.huge

local function clip(v)
  if v ~= v then return 0.0 end
  if v > EVAL_LIMIT then return EVAL_LIMIT end
  if v < -EVAL_LIMIT then return -EVAL_LIMIT end
  return v
end

-- What the levels' evaluations call: evoplay's GP functions (evoplay.gp.export) and the linear evaluation.
local function div(a, b)
  if math.abs(b) >= 1e-9 then return a / b end
  return 1.0
end
local function min2(a, b)
  if a < b then return a end
  return b
end
local function max2(a, b)
  if a > b then return a end
  return b
end
local function if_lt(a, b, c, d)
  if a < b then return c end
  return d
end
local function wrap(x, n)
  if not (math.abs(x) < 9007199254740992) then return 0 end
  return math.floor(x) % n
end
local function linear(weights)
  return function(f)
    local v = 0.0
    for j = 1, #weights do v = v + weights[j] * f[j] end
    return clip(v)
  end
end
local function with_base(base, program) -- a program added to a fitted linear evaluation (a NaN program adds 0)
  return function(f)
    local p = program(f)
    if p ~= p then p = 0.0 end
    local v = 0.0
    for j = 1, #base do v = v + base[j] * f[j] end
    return clip(v + p)
  end
end

---------------------------------------------------------------------------------------------------------------
-- The levels: each one's evaluation, search and budget, as evoplay's best.json of that level sets them.
---------------------------------------------------------------------------------------------------------------
--@LEVELS@

---------------------------------------------------------------------------------------------------------------
-- The host game: the interface the player calls (docs/your-game.md, "A player for your host game").
---------------------------------------------------------------------------------------------------------------
--@HOST@

---------------------------------------------------------------------------------------------------------------
-- The player: evoplay's alpha-beta (evoplay.search.minimax) and move choice (FeatureAgent), line by line.
---------------------------------------------------------------------------------------------------------------

-- The largest double below x (numpy.nextafter(x, -inf)): the root's window opens just below the best so far.
local function below(x)
  if x ~= x or x == -INF then return x end
  if x == INF then return 1.7976931348623157e308 end
  if x == 0 then return -SMALLEST end
  local m = math.abs(x)
  local e = math.floor(math.log(m) / math.log(2))
  while 2 ^ e > m do e = e - 1 end
  while 2 ^ (e + 1) <= m do e = e + 1 end
  local step
  if x > 0 and m == 2 ^ e then step = 2 ^ (e - 53) else step = 2 ^ (e - 52) end
  if step < SMALLEST then step = SMALLEST end
  return x - step
end

-- Ties between equally valued moves: the Park-Miller generator (minstd, multiplier 48271), seeded by restart.
local function tie_draw(seed)
  local state = (seed or 0) % 2147483646 + 1
  return function(n)
    state = (state * 48271) % 2147483647
    return math.floor(state * n / 2147483647)
  end
end

-- Sort items in place by key_of(item), highest first, equals kept in order (Python's stable sort).
local function sort_descending(items, key_of)
  for i = 2, #items do
    local item = items[i]
    local key = key_of(item)
    local j = i - 1
    while j >= 1 and key_of(items[j]) < key do
      items[j + 1] = items[j]
      j = j - 1
    end
    items[j + 1] = item
  end
end

-- --- the numbers the evaluation reads (evoplay.agents.feature_view) ------------------------------------------
local function free_features(host, state, player, row)
  local terminal = host.is_terminal(state)
  local mover = -1
  local count = 0
  if not terminal then
    mover = host.current_player(state)
    count = #host.legal_moves(state)
  end
  local mine = mover == player
  local scores = host.scores and host.scores(state) or host.returns(state)
  local others = -INF
  for p = 1, #scores do
    if p - 1 ~= player and scores[p] > others then others = scores[p] end
  end
  row[#row + 1] = player + 0.0
  row[#row + 1] = mine and 1.0 or 0.0
  row[#row + 1] = mine and count + 0.0 or 0.0
  row[#row + 1] = (mine or terminal) and 0.0 or count + 0.0
  row[#row + 1] = scores[player + 1] + 0.0
  row[#row + 1] = others == -INF and 0.0 or others + 0.0
end

local DIRECTIONS = {{0, 1}, {1, 0}, {1, 1}, {1, -1}} -- E, S, SE, SW

local function pair_counts(f, planes, rows, columns, out)
  local n = #out
  for d = 1, 4 do
    local dr, dc = DIRECTIONS[d][1], DIRECTIONS[d][2]
    for a = 0, planes - 1 do
      for b = a, planes - 1 do
        local total = 0.0
        for r = 0, rows - 1 do
          for c = 0, columns - 1 do
            local r2, c2 = r + dr, c + dc
            if r2 >= 0 and r2 < rows and c2 >= 0 and c2 < columns then
              total = total + f[(a * rows + r) * columns + c + 1] * f[(b * rows + r2) * columns + c2 + 1]
              if a ~= b then
                total = total + f[(b * rows + r) * columns + c + 1] * f[(a * rows + r2) * columns + c2 + 1]
              end
            end
          end
        end
        n = n + 1
        out[n] = total
      end
    end
  end
end

local function line_slots(codes, length)
  local slot_of, count = {}, 0
  for index = 0, codes ^ length - 1 do
    local reverse = 0
    for i = 0, length - 1 do
      reverse = reverse + (math.floor(index / codes ^ i) % codes) * codes ^ (length - 1 - i)
    end
    if reverse < index then
      slot_of[index] = slot_of[reverse]
    else
      slot_of[index] = count
      count = count + 1
    end
  end
  return {slot_of = slot_of, count = count}
end

local function line_counts(f, planes, rows, columns, codes, length, slots, out)
  local function reading(r, c)
    for k = 0, planes - 1 do
      if f[(k * rows + r) * columns + c + 1] > 0.5 then return k end
    end
    return codes - 1
  end
  for d = 1, 4 do
    local dr, dc = DIRECTIONS[d][1], DIRECTIONS[d][2]
    local counts = {}
    for s = 1, slots.count do counts[s] = 0.0 end
    for r = 0, rows - 1 do
      for c = 0, columns - 1 do
        local r2, c2 = r + dr * (length - 1), c + dc * (length - 1)
        if r2 >= 0 and r2 < rows and c2 >= 0 and c2 < columns then
          local index = 0
          for i = 0, length - 1 do index = index + reading(r + dr * i, c + dc * i) * codes ^ i end
          local s = slots.slot_of[index] + 1
          counts[s] = counts[s] + 1.0
        end
      end
    end
    for s = 1, slots.count do out[#out + 1] = counts[s] end
  end
end

-- One position's row from player's side: the game's features, the free features, the board counts, scaled.
local function feature_row(host, level, state, player)
  local own = host.features(state, player)
  if #own ~= level.own then
    error("features(state, " .. player .. ") gave " .. #own .. " numbers; the player reads " .. level.own ..
          " (FEATURES)", 0)
  end
  local row = {}
  for i = 1, #own do row[i] = own[i] + 0.0 end
  if level.free then free_features(host, state, player, row) end
  local board = level.board
  if board then
    if board.lines > 0 then
      level.slots = level.slots or line_slots(board.codes, board.lines)
      line_counts(row, board.planes, board.rows, board.columns, board.codes, board.lines, level.slots, row)
    else
      pair_counts(row, board.planes, board.rows, board.columns, row)
    end
  end
  if level.scales then
    for k = 1, #row do row[k] = row[k] * level.scales[k] end
  end
  return row
end

-- --- the search: evoplay.search.minimax, with the feature player's batched leaves ----------------------------
local function new_search(host, level, player, depth, budget, shared_table, now)
  local S = {nodes = 0, completed = 0}
  local node_limit = (budget and budget.nodes > 0) and budget.nodes or INF
  local deadline = (budget and budget.ms > 0) and now() + budget.ms or INF
  local tt = budget and shared_table or nil
  local history = budget and {} or nil

  local function spend(count)
    S.nodes = S.nodes + count
    if S.completed > 0 and (S.nodes > node_limit or (deadline ~= INF and now() > deadline)) then
      error(OUT_OF_BUDGET, 0)
    end
  end

  local function terminal(state, d)
    return host.returns(state)[player + 1] * (TERMINAL_SCALE + d)
  end

  local function leaf(state)
    return level.evaluate(feature_row(host, level, state, player))
  end

  local function child(state, action)
    local c = host.clone(state)
    host.apply(c, action)
    return c
  end

  local function leaf_values(children)
    spend(#children)
    local values = {}
    for i = 1, #children do
      if host.is_terminal(children[i]) then values[i] = terminal(children[i], 0) else values[i] = leaf(children[i]) end
    end
    return values
  end

  local function ordered(actions, first)
    local out = {}
    for i = 1, #actions do out[i] = actions[i] end
    sort_descending(out, function(a) return history[a] or 0 end)
    if first ~= nil and out[1] ~= first then
      for i = 2, #out do
        if out[i] == first then
          table.remove(out, i)
          table.insert(out, 1, first)
          break
        end
      end
    end
    return out
  end

  local function value(state, d, alpha, beta)
    spend(1)
    if host.is_terminal(state) then return terminal(state, d) end
    if d <= 0 then return leaf(state) end
    local maximise = host.current_player(state) == player
    local actions = host.legal_moves(state)
    if d == 1 then
      local children = {}
      for i = 1, #actions do children[i] = child(state, actions[i]) end
      local values = leaf_values(children)
      local best = maximise and -INF or INF
      for i = 1, #values do
        if (maximise and values[i] > best) or (not maximise and values[i] < best) then best = values[i] end
      end
      return best
    end
    local key = nil
    if tt then
      if host.key then key = host.key(state) end
      local entry = nil
      if key ~= nil then entry = tt.map[key] end
      if entry then
        if entry[1] >= d and (entry[3] == EXACT or (entry[3] == LOWER and entry[2] >= beta)
                              or (entry[3] == UPPER and entry[2] <= alpha)) then
          return entry[2]
        end
        actions = ordered(actions, entry[4])
      else
        actions = ordered(actions, nil)
      end
    end
    local alpha0, beta0 = alpha, beta
    local best = maximise and -INF or INF
    local best_action = actions[1]
    for i = 1, #actions do
      local a = actions[i]
      local v = value(child(state, a), d - 1, alpha, beta)
      if maximise then
        if v > best then best, best_action = v, a end
        if best > alpha then alpha = best end
      else
        if v < best then best, best_action = v, a end
        if best < beta then beta = best end
      end
      if alpha >= beta then
        if history then history[a] = (history[a] or 0) + d * d end
        break
      end
    end
    if key ~= nil then
      if tt.size >= TABLE_LIMIT then
        tt.map, tt.size = {}, 0
      end
      local flag = EXACT
      if best <= alpha0 then flag = UPPER elseif best >= beta0 then flag = LOWER end
      if tt.map[key] == nil then tt.size = tt.size + 1 end
      tt.map[key] = {d, best, flag, best_action}
    end
    return best
  end

  local function iteration(children, d)
    if d == 1 then return leaf_values(children) end
    local values, best = {}, -INF
    for i = 1, #children do
      -- the window opens just below the best so far: a tie comes back exact, a worse move as a bound below it
      local alpha = best > -INF and below(best) or -INF
      local v = value(children[i], d - 1, alpha, INF)
      values[i] = v
      if v > best then best = v end
    end
    return values
  end

  function S.root(state, actions)
    local children = {}
    for i = 1, #actions do children[i] = child(state, actions[i]) end
    if not budget then return iteration(children, depth) end
    local order, values = {}, {}
    for i = 1, #actions do order[i], values[i] = i, 0.0 end
    for d = 1, depth do
      local ordered_children = {}
      for i = 1, #order do ordered_children[i] = children[order[i]] end
      local ok, found = pcall(iteration, ordered_children, d)
      if not ok then
        if found == OUT_OF_BUDGET then break end
        error(found, 0)
      end
      for i = 1, #order do values[order[i]] = found[i] end
      S.completed = d
      sort_descending(order, function(k) return values[k] end)
      local known = true
      for i = 1, #values do
        if math.abs(values[i]) < TERMINAL_SCALE then
          known = false
          break
        end
      end
      if known then break end
    end
    return values
  end

  return S
end

-- --- the player ----------------------------------------------------------------------------------------------
local function level_named(name)
  local chosen = name or DEFAULT_LEVEL
  local names = {}
  for i = 1, #LEVELS do
    if LEVELS[i].name == chosen then return LEVELS[i] end
    names[i] = LEVELS[i].name
  end
  error("no level " .. tostring(chosen) .. "; the levels are " .. table.concat(names, ", "), 2)
end

local function check_host(host)
  local needed = {"current_player", "is_terminal", "legal_moves", "clone", "apply", "returns", "features"}
  for i = 1, #needed do
    if type(host[needed[i]]) ~= "function" then error("the host game has no " .. needed[i] .. "(...)", 3) end
  end
  if USES_TABLE and type(host.key) ~= "function" then
    error("this player keeps a transposition table: give the host game key(state), equal for equal positions only", 3)
  end
  if host.feature_names then
    for j = 1, #FEATURES do
      if host.feature_names[j] ~= FEATURES[j] then
        error("the host's feature " .. j .. " is " .. tostring(host.feature_names[j]) .. ", the player reads " ..
              FEATURES[j] .. " there", 3)
      end
    end
  end
end

-- A player of one level: options.level (default: the top level), options.seed (its tie draws), options.nodes
-- and options.ms (a budget a move instead of the level's; 0 turns that limit off), options.now (a clock in ms;
-- default os.clock, the process's CPU time).
local function new_player(host, options)
  options = options or {}
  check_host(host)
  local level = level_named(options.level)
  local nodes = options.nodes or level.nodes
  local ms = options.ms or level.ms
  local budget = nil
  if nodes > 0 or ms > 0 then budget = {nodes = nodes, ms = ms} end
  local depth = budget and MAX_DEPTH or level.depth
  local now = options.now or function() return os.clock() * 1000 end
  local draw = tie_draw(options.seed or 0)
  local tt = {map = {}, size = 0}

  local function values(state, player, actions)
    if budget or level.policy == "search" then
      return new_search(host, level, player, depth, budget, tt, now).root(state, actions)
    end
    local out = {}
    for i = 1, #actions do -- the policy "move": each move's after-state from its side
      local c = host.clone(state)
      host.apply(c, actions[i])
      if host.is_terminal(c) then
        out[i] = host.returns(c)[player + 1] * TERMINAL_SCALE
      else
        out[i] = level.evaluate(feature_row(host, level, c, player))
      end
    end
    return out
  end

  local player = {level = level.name}
  -- a new game: the tie draws from seed, an empty transposition table (seat: kept for symmetry with evoplay)
  function player.restart(seed, seat)
    draw = tie_draw(seed or 0)
    tt.map, tt.size = {}, 0
  end
  -- the move it plays at state (its turn)
  function player.choose(state)
    local actions = host.legal_moves(state)
    if #actions == 1 then return actions[1] end
    local vals = values(state, host.current_player(state), actions)
    local best, top = -INF, {}
    for i = 1, #vals do if vals[i] > best then best = vals[i] end end
    for i = 1, #vals do if vals[i] == best then top[#top + 1] = i end end
    if #top == 1 then return actions[top[1]] end
    return actions[top[draw(#top) + 1]]
  end
  return player
end

local default_players = {}

-- The move of the included host game's player at state, of the level named (default the top one).
local function choose_move(state, level)
  local name = level_named(level).name
  if not GAME then error("this file has no host game of its own: use new_player(your_host, {level = ...})", 2) end
  default_players[name] = default_players[name] or new_player(GAME, {level = name})
  return default_players[name].choose(state)
end

local level_names = {}
for i = 1, #LEVELS do level_names[i] = LEVELS[i].name end

return {
  levels = level_names,
  default_level = DEFAULT_LEVEL,
  features = FEATURES,
  GAME = GAME,
  make_game = make_game,
  new_player = new_player,
  choose_move = choose_move,
  below = below,
  tie_draw = tie_draw,
}
