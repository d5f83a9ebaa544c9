"""Take the screenshots of docs/serve.md: every page of evoplay serve in headless Chromium, over real runs.

    python3 docs/serve/screenshots.py        (writes docs/serve/*.png; needs chromium, chromium-driver, selenium)

A finished run (4 generations) and a running one (evolving while the run page is photographed) are made with
``evoplay evolve mancala`` in a temporary runs folder; the file game is examples/othello6.py copied into it
(drawn from its grid); the generic view is OpenSpiel's pig, a dice game (needs evoplay[openspiel]).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "tests" / "serve"))

from browser import Server, missing, start_browser, stop_browser, wait_for  # noqa: E402


def evolve(root: Path, name: str, generations: int, population: int, seed: int, wait: bool):
    cmd = ["evoplay", "evolve", "mancala", "--generations", str(generations), "--population", str(population),
           "--seed", str(seed), "--backend", "serial", "--out", str(root / name)]
    if wait:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return None
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main() -> None:
    why = missing()
    if why:
        sys.exit(f"cannot take screenshots: {why}")
    root = Path(tempfile.mkdtemp(prefix="evoplay-shots-")) / "runs"
    root.mkdir()
    shutil.copy(REPO / "examples" / "othello6.py", root / "othello6.py")
    evolve(root, "mancala-4gens", 4, 16, 3, wait=True)
    live = evolve(root, "mancala-live", 400, 60, 1, wait=False)
    driver = start_browser(1200, 860)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    def css(sel):
        return driver.find_elements(By.CSS_SELECTOR, sel)

    def version():
        return int(driver.execute_script("return document.body.dataset.version || '0'"))

    def shot(name):
        time.sleep(0.4)
        driver.save_screenshot(str(HERE / f"{name}.png"))
        print("wrote", HERE / f"{name}.png")

    def start(game, opponent, seat="0", seed=0, tick=None):
        driver.get(f"{server.url}/?game={quote(game)}&opponent={quote(opponent)}")
        wait_for(lambda: driver.find_element(By.ID, "opponent").get_attribute("value") == opponent)
        wait_for(lambda: css(f"#seat option[value='{seat}']"))
        driver.execute_script(f"document.getElementById('seat').value = '{seat}'")
        box = driver.find_element(By.ID, "seed")
        box.clear()
        box.send_keys(str(seed))
        if tick:
            t = driver.find_element(By.ID, "tick")
            t.clear()
            t.send_keys(str(tick))
        driver.find_element(By.ID, "start").click()
        wait_for(lambda: "/play?id=" in driver.current_url and version() > 0)

    def click(sel, times):
        for _ in range(times):
            if driver.execute_script("return document.body.dataset.state") != "yours":
                return
            before = version()
            css(sel)[0].click()
            wait_for(lambda: version() > before)

    try:
        with Server(root) as server:
            driver.get(server.url + "/")
            wait_for(lambda: css("#agents tbody tr"))
            shot("index")
            start("kalah", "alphabeta(depth=4)")
            click(".pit.mine.legal", 4)
            shot("kalah")
            start("mnk", "alphabeta(depth=4)")
            for cell in ("c3", "b2", "d4"):
                before = version()
                driver.find_element(By.ID, f"cell-{cell}").click()
                wait_for(lambda: version() > before)
            shot("mnk")
            start("sevens", "medium", seed=4)
            click("#hand .playing-card.legal", 4)
            shot("sevens")
            for game in ("tron", "gems"):
                start(game, "rs(budget_ms=40,depth=10)", tick=150)
                body = driver.find_element(By.TAG_NAME, "body")
                time.sleep(1.6)
                for key in (Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_RIGHT, Keys.ARROW_DOWN):
                    body.send_keys(key)
                    time.sleep(0.35)
                shot(game)
            start("othello6.py:Othello", "alphabeta(depth=2)")
            click(".board .cell.playable", 2)
            shot("board")
            start("openspiel:pig(winscore=20)", "random", seed=3)
            click("#actions button", 2)
            shot("generic")
            driver.get(server.url + "/target")
            wait_for(lambda: css("#level option"))
            driver.find_element(By.ID, "seed").send_keys("5")
            driver.find_element(By.ID, "start").click()
            wait_for(lambda: len(css("#numbers span")) == 6)
            numbers = [s.text for s in css("#numbers span")]
            expr = driver.find_element(By.ID, "expr")
            expr.send_keys(f"({numbers[5]} - {numbers[0]}) * {numbers[4]} + ")
            wait_for(lambda: driver.find_element(By.ID, "caret").is_displayed())
            time.sleep(2.5)
            shot("target")
            driver.get(server.url + "/runs")
            wait_for(lambda: len(css("#runs tbody tr")) >= 2)
            shot("runs")
            driver.set_window_size(1200, 1500)
            driver.get(server.url + "/run?path=mancala-live")
            wait_for(lambda: int(driver.execute_script("return document.body.dataset.generations || '0'")) >= 12,
                     timeout=300)
            time.sleep(1.5)
            shot("run-live")
            driver.get(server.url + "/run?path=mancala-4gens")
            wait_for(lambda: css("#plots img"))
            time.sleep(1.0)
            shot("run-finished")
    finally:
        stop_browser(driver)
        if live is not None:
            live.terminate()
            live.wait()
        shutil.rmtree(root.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
