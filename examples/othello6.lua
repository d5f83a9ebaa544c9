-- 6x6 Othello in Lua: the rules and features of examples/othello6.py, as the host interface an evoplay player
-- reads (docs/your-game.md, "A player for your host game"). `evoplay export RUN --lang lua` writes this file into
-- the player of a run on examples/othello6.py:Othello, so the export runs as it is. Lua 5.1 to 5.5 and LuaJIT.
--
-- A position is {board, player, legal}: board[cell + 1] is 0 empty, 1 black (player 0), 2 white (player 1), cell =
-- row * 6 + column from a1; player is the one to move (-4 once the game is over); legal its moves (empty: it
-- passes). Actions are the cells 0..35 and 36, the pass; players are 0 and 1, and returns, scores and features
-- are 1-based lists (player p's return at [p + 1]).
local function make_game(params)
  local SIZE, CELLS, PASS, TERMINAL = 6, 36, 36, -4
  local CORNERS = {0, SIZE - 1, CELLS - SIZE, CELLS - 1}
  local DIRECTIONS = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}
  local VIEW = {[0] = {[0] = 0.0, 1.0, -1.0}, [1] = {[0] = 0.0, -1.0, 1.0}} -- cell code -> feature, by player

  -- For every cell, its rays in the 8 directions (only those with room for a flip).
  local RAYS = {}
  for cell = 0, CELLS - 1 do
    local rays = {}
    for d = 1, #DIRECTIONS do
      local ray = {}
      local r, c = math.floor(cell / SIZE) + DIRECTIONS[d][1], cell % SIZE + DIRECTIONS[d][2]
      while r >= 0 and r < SIZE and c >= 0 and c < SIZE do
        ray[#ray + 1] = r * SIZE + c
        r, c = r + DIRECTIONS[d][1], c + DIRECTIONS[d][2]
      end
      if #ray >= 2 then rays[#rays + 1] = ray end
    end
    RAYS[cell] = rays
  end

  local function flips(board, cell, me)
    local turned = {}
    for _, ray in ipairs(RAYS[cell]) do
      local run = {}
      for _, k in ipairs(ray) do
        local v = board[k + 1]
        if v ~= 3 - me then
          if v == me then
            for _, x in ipairs(run) do turned[#turned + 1] = x end
          end
          break
        end
        run[#run + 1] = k
      end
    end
    return turned
  end

  local function moves(board, me)
    local out = {}
    for c = 0, CELLS - 1 do
      if board[c + 1] == 0 and #flips(board, c, me) > 0 then out[#out + 1] = c end
    end
    return out
  end

  local function cell_name(cell)
    return string.char(97 + cell % SIZE) .. tostring(math.floor(cell / SIZE) + 1)
  end

  local names = {}
  for c = 0, CELLS - 1 do names[#names + 1] = cell_name(c) end
  for _, n in ipairs({"my_discs", "opp_discs", "my_corners", "opp_corners", "to_move", "mobility"}) do
    names[#names + 1] = n
  end

  local function count(list, v)
    local k = 0
    for i = 1, #list do if list[i] == v then k = k + 1 end end
    return k
  end

  local function copy(list)
    local out = {}
    for i = 1, #list do out[i] = list[i] end
    return out
  end

  local game = {num_players = 2, feature_names = names}

  function game.new_game()
    local board, mid = {}, SIZE / 2
    for i = 1, CELLS do board[i] = 0 end
    board[(mid - 1) * SIZE + mid - 1 + 1], board[mid * SIZE + mid + 1] = 2, 2
    board[(mid - 1) * SIZE + mid + 1], board[mid * SIZE + mid - 1 + 1] = 1, 1
    return {board = board, player = 0, legal = moves(board, 1)}
  end
  function game.current_player(s) return s.player end
  function game.is_terminal(s) return s.player == TERMINAL end
  function game.legal_moves(s)
    if #s.legal == 0 then return {PASS} end
    return copy(s.legal)
  end
  function game.clone(s) return {board = copy(s.board), player = s.player, legal = copy(s.legal)} end
  function game.apply(s, action)
    local me = s.player + 1
    if action ~= PASS then
      for _, c in ipairs(flips(s.board, action, me)) do s.board[c + 1] = me end
      s.board[action + 1] = me
    end
    local nxt = 1 - s.player
    s.legal = moves(s.board, nxt + 1)
    if #s.legal == 0 and (action == PASS or #moves(s.board, me) == 0) then
      s.player, s.legal = TERMINAL, {} -- neither player can move
    else
      s.player = nxt
    end
  end
  function game.returns(s)
    if s.player ~= TERMINAL then return {0.0, 0.0} end
    local d = count(s.board, 1) - count(s.board, 2)
    local margin = d > 0 and 1.0 or (d < 0 and -1.0 or 0.0)
    return {margin, -margin}
  end
  function game.scores(s) return {count(s.board, 1) + 0.0, count(s.board, 2) + 0.0} end
  function game.features(s, player)
    local me, opp = player + 1, 2 - player
    local out = {}
    for i = 1, CELLS do out[i] = VIEW[player][s.board[i]] end
    local corners = {}
    for i = 1, 4 do corners[i] = s.board[CORNERS[i] + 1] end
    out[CELLS + 1] = count(s.board, me)
    out[CELLS + 2] = count(s.board, opp)
    out[CELLS + 3] = count(corners, me)
    out[CELLS + 4] = count(corners, opp)
    out[CELLS + 5] = s.player == player and 1.0 or 0.0
    out[CELLS + 6] = #s.legal
    return out
  end
  function game.key(s) return s.player .. ":" .. table.concat(s.board) end
  function game.action_name(action)
    if action == PASS then return "pass" end
    return cell_name(action)
  end
  return game
end
return make_game
