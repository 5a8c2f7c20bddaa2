"""Pages of docs/ shown on the site: the same Markdown the developers read."""

from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe


@lru_cache(maxsize=16)
def doc_html(relative_path: str) -> SafeString:
    """docs/<relative_path> as HTML (our own files, so their HTML is trusted)."""
    source = Path(settings.BASE_DIR) / "docs" / relative_path
    return mark_safe(markdown.markdown(source.read_text(), extensions=["tables", "toc", "fenced_code"]))
