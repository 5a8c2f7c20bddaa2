"""Each Dobble symbol is drawn by its own picture, named after it and shipped with the site."""

import hashlib
from pathlib import Path

from games.dobble.deck import SYMBOL_COUNT, SYMBOL_NAMES
from games.matches import lifecycle
from games.matches.views import dobble_symbols

PICTURES = Path(__file__).resolve().parents[2] / "static" / "vendor" / "twemoji"


def test_every_symbol_has_a_picture_file_named_after_it_and_no_two_pictures_are_the_same():
    files = [PICTURES / f"{name.replace(' ', '-')}.svg" for name in SYMBOL_NAMES]
    assert len(files) == SYMBOL_COUNT == 57
    digests = {hashlib.sha256(path.read_bytes()).hexdigest() for path in files}
    assert len(digests) == 57
    assert all(path.read_text().startswith("<svg") for path in files)


def test_only_the_pictures_in_use_are_shipped_with_their_licence():
    shipped = {path.name for path in PICTURES.iterdir()}
    assert shipped == {f"{name.replace(' ', '-')}.svg" for name in SYMBOL_NAMES} | {"LICENSE", "README.md"}
    assert "CC-BY 4.0" in (PICTURES / "LICENSE").read_text()


def test_the_table_page_is_given_each_symbol_s_name_and_picture_address():
    symbols = dobble_symbols()
    assert symbols[0] == {"name": "anchor", "picture": "/static/vendor/twemoji/anchor.svg"}
    assert symbols[26] == {"name": "hut", "picture": "/static/vendor/twemoji/hut.svg"}


def test_a_table_page_of_dobble_carries_the_symbols_for_its_script(client, alice):
    match = lifecycle.create_match(game="dobble", players=2, host=alice, options=None, seed=3)
    html = client.get(f"/match/{match.pk}/").content.decode()
    assert 'id="dobble-symbols"' in html and "/static/vendor/twemoji/zebra.svg" in html
    assert "js/games/dobble.js" in html
