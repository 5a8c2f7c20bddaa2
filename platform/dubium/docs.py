"""Pages of docs/ shown on the site: the same Markdown the developers read.

Links between those files (`../rules/dudo.md`) point at the site's page for the file when it
has one, and become plain text when it has none (developer notes are not served).
"""

import posixpath
import re
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from games.registry import REGISTRY

LINK = re.compile(r'<a href="(?P<target>[^":]+\.md)(?P<anchor>#[^"]*)?">(?P<text>.*?)</a>', re.S)


@lru_cache(maxsize=32)
def doc_html(relative_path: str) -> SafeString:
    """docs/<relative_path> as HTML (our own files, so their HTML is trusted)."""
    source = Path(settings.BASE_DIR) / "docs" / relative_path
    html = markdown.markdown(source.read_text(), extensions=["tables", "toc", "fenced_code"])
    folder = posixpath.dirname(relative_path)

    def on_site(link: re.Match) -> str:
        url = site_url(posixpath.normpath(posixpath.join(folder, link["target"])))
        return f'<a href="{url}{link["anchor"] or ""}">{link["text"]}</a>' if url else link["text"]

    return mark_safe(LINK.sub(on_site, html))


def site_url(doc_path: str) -> str | None:
    """The page that shows docs/<doc_path>, if the site shows it."""
    if doc_path == "bots.md":
        return reverse("bots")
    if doc_path == "protocol.md":
        return reverse("bot-protocol")
    for game in REGISTRY.values():
        if doc_path == game.rules_doc:
            return reverse("rules", args=[game.slug])
        if doc_path in (game.protocol_doc, game.engine_doc):  # the protocol page shows the engine notes too
            return reverse("bot-protocol-game", args=[game.slug])
    return None
