-- OpenSpiel's connect_four in Lua: the rules and features of evoplay's port (connect_four.py), as the host interface
-- an evoplay player reads (docs/your-game.md, "A player for your host game"). `evoplay export RUN --lang lua` writes
-- this file into the player of an openspiel:connect_four run, so the export runs as it is. Lua 5.1 to 5.5, LuaJIT.
--
-- A position is {board, player, outcome}: board[row * columns + column + 1] (row 0 at the bottom) is 0 empty, 1 o
-- (player 1), 2 x (player 0); player is the one to move; outcome 0 none yet, 1 x won, 2 o won, 3 a draw. An action
-- is a column. The features are evoplay's for OpenSpiel's connect_four: the player's own stones, the opponent's,
-- the empty cells, a plane of rows x columns each. params: rows (6), columns (7), x_in_row (4).
local function make_game(params)
  local ROWS, COLUMNS, X_IN_ROW = params.rows or 6, params.columns or 7, params.x_in_row or 4
  if params.egocentric_obs_tensor then error("this host plays connect_four without egocentric_obs_tensor") end
  local EMPTY, NOUGHT, CROSS, TERMINAL, DRAW = 0, 1, 2, -4, 3
  local MARK = {[0] = CROSS, [1] = NOUGHT}
  local AXES = {{0, 1}, {1, 0}, {1, 1}, {1, -1}}
  local CELLS = ROWS * COLUMNS

  local function line_through(board, row, column)
    local mark = board[row * COLUMNS + column + 1]
    for a = 1, 4 do
      local run = 1
      for _, sign in ipairs({1, -1}) do
        local dr, dc = sign * AXES[a][1], sign * AXES[a][2]
        local r, c = row + dr, column + dc
        while r >= 0 and r < ROWS and c >= 0 and c < COLUMNS and board[r * COLUMNS + c + 1] == mark do
          run = run + 1
          r, c = r + dr, c + dc
        end
      end
      if run >= X_IN_ROW then return true end
    end
    return false
  end

  local names = {}
  for p = 0, 2 do
    for r = 0, ROWS - 1 do
      for c = 0, COLUMNS - 1 do names[#names + 1] = "obs[" .. p .. "," .. r .. "," .. c .. "]" end
    end
  end

  local game = {num_players = 2, feature_names = names}
  function game.new_game()
    local board = {}
    for i = 1, CELLS do board[i] = EMPTY end
    return {board = board, player = 0, outcome = 0}
  end
  function game.current_player(s)
    if s.outcome ~= 0 then return TERMINAL end
    return s.player
  end
  function game.is_terminal(s) return s.outcome ~= 0 end
  function game.legal_moves(s)
    local out = {}
    if s.outcome ~= 0 then return out end
    for c = 0, COLUMNS - 1 do
      if s.board[(ROWS - 1) * COLUMNS + c + 1] == EMPTY then out[#out + 1] = c end
    end
    return out
  end
  function game.clone(s)
    local board = {}
    for i = 1, CELLS do board[i] = s.board[i] end
    return {board = board, player = s.player, outcome = s.outcome}
  end
  function game.apply(s, column)
    local row = 0
    while s.board[row * COLUMNS + column + 1] ~= EMPTY do row = row + 1 end
    s.board[row * COLUMNS + column + 1] = MARK[s.player]
    if line_through(s.board, row, column) then
      s.outcome = s.player + 1
    else
      local full = true
      for c = 0, COLUMNS - 1 do
        if s.board[(ROWS - 1) * COLUMNS + c + 1] == EMPTY then full = false end
      end
      if full then s.outcome = DRAW end
    end
    s.player = 1 - s.player
  end
  function game.returns(s)
    if s.outcome == 1 then return {1.0, -1.0} end
    if s.outcome == 2 then return {-1.0, 1.0} end
    return {0.0, 0.0}
  end
  -- the player's own stones, the opponent's, the empty cells (OpenSpiel's tensor made relative to the seat)
  function game.features(s, player)
    local out = {}
    for i = 1, 3 * CELLS do out[i] = 0.0 end
    for i = 1, CELLS do
      local v = s.board[i]
      local plane = 1
      if v == EMPTY then plane = 2 elseif v == MARK[player] then plane = 0 end
      out[plane * CELLS + i] = 1.0
    end
    return out
  end
  function game.key(s) return game.current_player(s) .. ":" .. table.concat(s.board) end
  function game.action_name(column) return tostring(column) end
  return game
end
return make_game
