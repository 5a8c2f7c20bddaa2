"""The bot client a bot author downloads (platform/botapi/client/): standard library only, it hears
of its bot's match on the event stream and plays it over the websocket; an example for each game."""

import ast
import importlib.util
import random
import sys
import threading
import time
from pathlib import Path

import pytest

from botapi import services
from games.engine import GAMES
from tests.ports import free_port

CLIENT = Path(__file__).resolve().parents[2] / "platform" / "botapi" / "client"


def load(path: Path):
    spec = importlib.util.spec_from_file_location(f"client_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_client_and_the_examples_import_the_standard_library_only():
    for path in CLIENT.rglob("*.py"):
        tree = ast.parse(path.read_text())
        names = {
            alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
        }
        names |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert names <= sys.stdlib_module_names, (path.name, names - sys.stdlib_module_names)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_each_games_example_plays_a_whole_game_legally(slug):
    engine, choose = GAMES[slug], load(CLIENT / "examples" / f"{slug.replace('-', '_')}.py").choose
    state = engine.new_game(engine.smallest_table, seed=3)
    for _ in range(5000):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        action = choose(engine.view(state, seat), engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action)  # an illegal answer raises
    assert engine.is_over(state)


@pytest.fixture
def site(transactional_db, settings):
    import uvicorn

    from dubium.ticker import start_ticker

    settings.HOUSE_BOT_THINK_MS = 20
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config("dubium.asgi:application", host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    stop = threading.Event()
    ticker = start_ticker(0.05, stop)
    yield f"http://127.0.0.1:{port}"
    stop.set()
    ticker.join(5)
    server.should_exit = True
    thread.join(10)


@pytest.mark.timeout(90)
def test_the_client_hears_of_its_match_on_the_event_stream_and_plays_it_to_the_end(site, alice):
    random.seed(1)
    client_module = load(CLIENT / "dubium_bot.py")
    bot, token = services.create_bot(alice, "Streamer")
    client = client_module.Client(site, token)
    started = client.request("POST", "/api/bots/Streamer/matches/", {"game": "dudo", "opponents": ["house:random"]})
    assert started["ranked"]
    told = next(client.events())
    assert (told["type"], told["match"]) == ("match_found", started["id"])
    final = client.play(told["match"], load(CLIENT / "examples" / "dudo.py").choose)
    assert final["status"] == "finished" and final["view"]["is_over"]
    with pytest.raises(client_module.DubiumError) as refused:
        client.request("POST", "/api/queue/", {"game": "nosuch", "players": 2})
    assert refused.value.status == 400 and refused.value.code == "invalid"


def test_the_client_answers_a_series_choice_with_the_bots_own_pick_or_else_the_offered_one():
    client_module = load(CLIENT / "dubium_bot.py")
    asked = {
        "type": "series_choice", "tournament": 7, "about": "Round 2 of spot it", "lost": 31,
        "choices": ["towering-inferno", "the-well"], "seconds": 30, "otherwise": "the-well",
        "answer": "/api/tournaments/7/choice/",
    }  # fmt: skip

    class Server:
        def __init__(self):
            self.posted = []

        def events(self):
            yield asked

        def request(self, method, path, body=None):
            self.posted.append((method, path, body))

    example = load(CLIENT / "examples" / "dobble.py")
    for pick, expected in ((example.choose_mini_game, "towering-inferno"), (None, "the-well")):
        server = Server()
        client_module.run(server, example.choose, choose_mini_game=pick)
        assert server.posted == [("POST", "/api/tournaments/7/choice/", {"mini_game": expected})]


@pytest.mark.django_db
def test_the_bots_page_offers_the_client_and_each_example_for_download(client):
    page = client.get("/bots/").content.decode()
    assert 'href="/bots/client/dubium_bot.py"' in page and 'href="/bots/client/examples/doubt_it.py"' in page
    download = client.get("/bots/client/dubium_bot.py")
    assert download.status_code == 200 and "attachment" in download["Content-Disposition"]
    assert b"def play(" in b"".join(download.streaming_content)
    assert client.get("/bots/client/examples/nosuch.py").status_code == 404
