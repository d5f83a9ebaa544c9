"""End-to-end: a headless Chromium plays Kalah, an m,n,k-game, a target-number round and a Sevens hand, and watches a
run live."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from browser import Server, missing, start_browser, stop_browser, wait_for
from conftest import HEXAPAWN, evolve_run, make_mancala_run, record_line, write_pile

reason = missing()
pytestmark = pytest.mark.skipif(reason is not None, reason=f"no browser for the end-to-end tests: {reason}")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    make_mancala_run(root)
    return root


@pytest.fixture(scope="module")
def server(runs):
    with Server(runs) as s:
        yield s


@pytest.fixture(scope="module")
def driver():
    d = start_browser()
    yield d
    stop_browser(d)


def by_css(driver, css):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, css)


def by_id(driver, name):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, name)


def version(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.version || '0'"))


def state(driver) -> str:
    return driver.execute_script("return document.body.dataset.state || ''")


def start_game(driver, server, game: str, opponent: str, seat: str = "0", seed: int = 0):
    """The play form, filled as a link from the runs page fills it (?game=&opponent=), then Start."""
    from urllib.parse import quote

    driver.get(f"{server.url}/?game={quote(game)}&opponent={quote(opponent)}")
    wait_for(lambda: by_id(driver, "opponent").get_attribute("value") == opponent
             and by_id(driver, "game-spec").get_attribute("value") == game, what="the filled form")
    wait_for(lambda: by_css(driver, f"#seat option[value='{seat}']"), what="the seats")
    driver.execute_script(f"document.getElementById('seat').value = '{seat}'")
    seed_box = by_id(driver, "seed")
    seed_box.clear()
    seed_box.send_keys(str(seed))
    by_id(driver, "start").click()
    wait_for(lambda: "/play?id=" in driver.current_url and version(driver) > 0, what="the game page")


def test_whole_kalah_game_clicked_against_alphabeta_depth_4(driver, server):
    start_game(driver, server, "kalah", "alphabeta(depth=4)")
    assert "against alphabeta(depth=4)" in by_id(driver, "title").text
    clicks = 0
    while state(driver) != "over":
        assert state(driver) == "yours"
        pits = by_css(driver, ".pit.mine.legal")
        before = version(driver)
        pits[0].click()
        clicks += 1
        wait_for(lambda: version(driver) > before, what="the reply to a click")
        assert by_id(driver, "message").text == ""
        assert clicks < 120
    status = by_id(driver, "status").text
    assert status.startswith("game over:")
    mine = int(by_id(driver, "your-store").text.split()[0])
    theirs = int(by_id(driver, "their-store").text.split()[0])
    assert mine + theirs == 48
    assert status.endswith(f" ({mine} - {theirs})")  # Kalah's own status line (its view.js) gives the stores
    # Kalah's drawing and its stylesheet come from the game's package: the board is round and wooden
    board = driver.execute_script("const s = getComputedStyle(document.querySelector('.kalah'));"
                                  "return [s.borderTopLeftRadius, s.display];")
    assert board == ["60px", "flex"]
    replies = [li.text for li in by_css(driver, "#moves li.theirs")]
    assert replies and all(r.startswith("alphabeta(depth=4) played") and r.endswith("ms)") for r in replies)


def test_a_users_game_is_a_board_of_cells_clicked_to_the_end(driver, server, runs):
    import shutil

    shutil.copy(Path(__file__).resolve().parents[2] / "examples" / "othello6.py", runs / "othello6.py")
    start_game(driver, server, "othello6.py:Othello", "random")
    assert len(by_css(driver, ".board .cell")) == 36 and len(by_css(driver, ".board .cell.p0")) == 2
    assert {c.get_attribute("id") for c in by_css(driver, ".board .cell.playable")} == {
        "cell-4-2", "cell-3-1", "cell-2-4", "cell-1-3"}  # c2, b3, e4, d5: row 6 is the top row
    clicks = 0
    while state(driver) != "over":
        assert state(driver) == "yours"
        before = version(driver)
        playable = by_css(driver, ".board .cell.playable")
        (playable[0] if playable else by_css(driver, "#actions button")[0]).click()  # a pass is a button
        clicks += 1
        wait_for(lambda: version(driver) > before, what="the reply to a click")
        assert by_id(driver, "message").text == ""
        assert clicks < 60
    assert by_id(driver, "status").text.startswith("game over:")
    assert len(by_css(driver, ".board .cell.p0")) + len(by_css(driver, ".board .cell.p1")) > 4


def test_whole_mnk_game_clicked_against_random(driver, server):
    """The m,n,k-game's own drawing (its package's view.js and view.css): cells named as the game names its moves."""
    start_game(driver, server, "mnk(m=3,n=3,k=3)", "random")
    assert len(by_css(driver, ".mnk .cell")) == 9 and by_css(driver, "#cell-b2")
    label = driver.execute_script("return getComputedStyle(document.querySelector('.mnk .label')).color")
    assert label == "rgb(255, 255, 255)"  # the game's stylesheet is loaded
    clicks = 0
    while state(driver) != "over":
        assert state(driver) == "yours" and by_id(driver, "status").text == "your move"
        empty = [c for c in by_css(driver, ".mnk .cell") if c.text == ""]
        before = version(driver)
        empty[0].click()
        clicks += 1
        wait_for(lambda: version(driver) > before, what="the reply to a click")
        assert by_id(driver, "message").text == ""
        assert clicks < 6
    assert by_id(driver, "status").text.startswith("game over:")
    assert len(by_css(driver, ".mnk .cell.X")) == clicks


def test_a_users_game_brings_its_own_drawing(driver, server, runs):
    """docs/your-game.md's drawing (view.js beside the game's file, with a stylesheet) draws a user's game to the
    end, with its own status line."""
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "your-game.md").read_text(encoding="utf-8")
    script = re.search(r"\*\*A drawing of its own\.\*\*.*?```js\n(.*?)```", doc, re.S).group(1)
    write_pile(runs / "pile", "pile", script, ".pile { color: rgb(0, 128, 128); }\n")
    start_game(driver, server, "pile/pile.py:Pile", "random")
    assert by_css(driver, "p.pile")[0].text == "10 stones"
    assert driver.execute_script("return getComputedStyle(document.querySelector('.pile')).color") == "rgb(0, 128, 128)"
    while state(driver) != "over":
        before = version(driver)
        by_css(driver, "#board button")[0].click()
        wait_for(lambda: version(driver) > before, what="the reply to a click")
        assert by_id(driver, "message").text == ""
    assert re.fullmatch(r"game over: (you win|random wins) with 0 stones left", by_id(driver, "status").text)


def test_illegal_kalah_click_shows_the_reason(driver, server):
    start_game(driver, server, "kalah", "alphabeta(depth=2)")
    before = version(driver)
    by_id(driver, "pit-3").click()  # four seeds from pit 3 end in the store: another move, pit 3 now empty
    wait_for(lambda: version(driver) > before, what="the reply")
    assert by_css(driver, "#pit-3")[0].text.startswith("0")
    before = version(driver)
    by_id(driver, "pit-3").click()
    wait_for(lambda: version(driver) > before, what="the refusal")
    assert by_id(driver, "message").text == "pit 3 is empty; sow from a pit that holds seeds"


def test_target_round_typed_in(driver, server):
    from selenium.webdriver.common.keys import Keys

    from evoplay.games.target.solver import solve

    driver.get(server.url + "/target")
    wait_for(lambda: by_css(driver, "#level option"), what="the levels")
    driver.execute_script("document.getElementById('level').value = '1'")
    by_id(driver, "seed").send_keys("21")
    by_id(driver, "start").click()
    wait_for(lambda: len(by_css(driver, "#numbers span")) == 6, what="the draw")
    numbers = [int(s.text) for s in by_css(driver, "#numbers span")]
    target = int(by_id(driver, "target").text)
    box = by_id(driver, "expr")
    box.send_keys(f"{numbers[0]} + (")
    wait_for(lambda: by_id(driver, "caret").is_displayed() and "^" in by_id(driver, "caret").text,
             what="the caret message")
    assert by_id(driver, "check").text.startswith("syntax error at column")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    best = solve(numbers, target)
    box.send_keys(best.expression)
    wait_for(lambda: by_id(driver, "check").text.startswith(f"= {best.value}"), what="the value as you type")
    box.send_keys(Keys.ENTER)
    wait_for(lambda: by_css(driver, "#answers li"), what="the answer in the list")
    if best.distance:
        by_id(driver, "done").click()
    wait_for(lambda: by_id(driver, "verdict").text, timeout=20, what="the verdict")
    assert by_id(driver, "verdict").text.startswith("you win the round")
    assert by_id(driver, "you").text.startswith(f"{best.expression} = {best.value}") or \
        f"= {best.value}" in by_id(driver, "you").text
    assert "generations" in by_id(driver, "cpu").text


def test_sevens_hand_played(driver, server):
    start_game(driver, server, "sevens", "easy", seat="0", seed=7)
    tried_illegal = False
    turns = sent = 0
    while state(driver) != "over":
        assert state(driver) == "yours"
        status = by_id(driver, "status").text
        assert status == "your move" or status.endswith(" cannot play: choose a card to send them")
        sent += status != "your move"
        legal = by_css(driver, "#hand .playing-card.legal")
        cards = by_css(driver, "#hand .playing-card")
        before = version(driver)
        if legal and not tried_illegal and len(cards) > len(legal):
            blocked = next(c for c in cards if "legal" not in c.get_attribute("class"))
            name = blocked.get_attribute("data-card")
            blocked.click()
            wait_for(lambda: version(driver) > before, what="the refusal")
            assert by_id(driver, "message").text.startswith(f"{name} cannot go on the table yet")
            tried_illegal = True
            before = version(driver)
        (legal or cards)[0].click()  # a legal play, or in the send phase any card to send
        wait_for(lambda: version(driver) > before, what="the table's reply")
        turns += 1
        assert turns < 60
    assert "finishing order" in by_id(driver, "status").text
    assert tried_illegal
    assert sent > 0  # Sevens' own status line (its view.js) in the send phase


def test_live_run_page_shows_a_new_generation(driver, server, runs):
    folder = make_mancala_run(runs, "live", generations=2, finished=False)
    driver.get(server.url + "/run?path=live")
    wait_for(lambda: driver.execute_script("return document.body.dataset.generations") == "2",
             what="the two logged generations")
    assert "live" in by_id(driver, "state").text
    with open(folder.file("log.jsonl"), "a", encoding="utf-8") as f:
        f.write(record_line(2))
    wait_for(lambda: driver.execute_script("return document.body.dataset.generations") == "3", timeout=10,
             what="the new generation")
    assert "3 / 10 generations logged" in by_id(driver, "progress").text
    last = {row.find_element("css selector", "th").text: row.find_element("css selector", "td").text
            for row in by_css(driver, "#last tr")}
    assert last["generation"] == "2" and last["best"] == "42"


def test_runs_list_links_to_play_against_the_best(driver, server):
    driver.get(server.url + "/runs")
    wait_for(lambda: by_css(driver, "tr[data-path='mancala-1'] a"), what="the run in the list")
    link = [a for a in by_css(driver, "tr[data-path='mancala-1'] a") if a.text == "play against it"][0]
    link.click()
    wait_for(lambda: by_id(driver, "opponent").get_attribute("value") == "gp(mancala-1/best.json)",
             what="the run's best as the opponent")
    by_id(driver, "start").click()
    wait_for(lambda: "/play?id=" in driver.current_url and version(driver) > 0, what="the game page")
    assert "against gp(file=mancala-1/best.json)" in by_id(driver, "title").text


def test_two_moves_ending_on_one_cell_are_chosen_between(driver, server, runs):
    """Hexapawn's a1xb2 and c1xb2 both end on b2: clicking b2 lists both by their action strings, and the one
    picked is the one played (before, the second overwrote the first and a1xb2 could not be played)."""
    shutil.copy(HEXAPAWN, runs / "hexapawn.py")
    for seed in range(12):  # random answers b1-b2 by taking on b2 from a3 or c3 in about half the games
        start_game(driver, server, "hexapawn.py:Hexapawn", "random", seed=seed)
        before = version(driver)
        by_id(driver, "cell-1-1").click()  # b2: row 3 is the grid's top row; only b1-b2 ends there at the start
        wait_for(lambda: version(driver) > before, what="the reply to b1-b2")
        if "3xb2 (" in by_css(driver, "#moves li.theirs")[-1].text:  # "random played c3xb2 (0.06 ms)"
            break
    else:
        pytest.fail(f"random never took on b2 in 12 seeded games: {[li.text for li in by_css(driver, '#moves li')]}")
    assert by_css(driver, "#cell-1-1.shared") and by_id(driver, "cell-1-1").get_attribute("title") == "a1xb2 or c1xb2"
    by_id(driver, "cell-1-1").click()
    choices = wait_for(lambda: by_css(driver, "#chooser button.choice"), what="the chooser")
    assert [c.text for c in choices] == ["a1xb2", "c1xb2"] and by_id(driver, "message").text == ""
    before = version(driver)
    choices[0].click()
    wait_for(lambda: version(driver) > before, what="the reply to the chosen move")
    mine = [li.text for li in by_css(driver, "#moves li.mine")]
    assert mine == ["you played b1-b2", "you played a1xb2"]
    assert not by_css(driver, "#chooser button")


def test_a_ga_runs_page_plays_its_best(driver, server, runs):
    (runs / "games").mkdir(exist_ok=True)
    shutil.copy(HEXAPAWN, runs / "games" / "hexapawn.py")
    evolve_run(runs, "ga", "ga-hexapawn", str(runs / "games" / "hexapawn.py") + ":Hexapawn")
    driver.get(server.url + "/run?path=ga-hexapawn")
    play = wait_for(lambda: by_css(driver, "#play-it"), what="the run's play link")[0]
    assert by_id(driver, "progress").text == "stopped: 2 generations run"
    assert "weights (21 features): cell_00" in by_id(driver, "notation").text  # 15 of the game, 6 free ones
    assert not by_css(driver, "#no-notation")
    play.click()
    wait_for(lambda: by_id(driver, "opponent").get_attribute("value") == "weights(ga-hexapawn/best.json)",
             what="the run's best as the opponent")
    assert by_id(driver, "game-spec").get_attribute("value") == "games/hexapawn.py:Hexapawn"
    by_id(driver, "start").click()
    wait_for(lambda: "/play?id=" in driver.current_url and version(driver) > 0, what="the game page")
    assert "against weights(file=ga-hexapawn/best.json)" in by_id(driver, "title").text
    assert len(by_css(driver, ".board .cell")) == 9


def test_a_time_budget_runs_page_counts_minutes(driver, server, runs):
    from evoplay.evolve import RunFolder, load_config

    folder = RunFolder.create(runs / "ga-minutes", "ga", load_config("ga", None, {"minutes": 3.0}))
    for g in range(20):
        folder.log({"generation": g, "best": 0.5, "mean": 0.3, "worst": 0.1, "mean_size": 21.0, "games": 88,
                    "seconds": 3.0})
    driver.get(server.url + "/run?path=ga-minutes")
    wait_for(lambda: by_id(driver, "progress").text == "20 generations logged; 1.0 of 3 min spent, 2.0 min left",
             what="the minutes spent and left")
    folder.write_json("finished.json", {"generations": 20, "stopped": "the time budget of 3 min was spent after "
                                                                      "20 generations"})
    wait_for(lambda: by_id(driver, "progress").text == "stopped: the time budget of 3 min was spent after 20 "
             "generations", timeout=10, what="why the run stopped")
    assert by_id(driver, "state").text == "finished"
