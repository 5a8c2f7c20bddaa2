"""The rating-history chart: inline SVG drawn by the site (no script, no image request).

Games played while provisional (the first 30) are drawn dashed, established ones solid.
"""

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 480, 160
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 10, 22


def history_svg(points: list[float], provisional_until: int, label: str, first_game: int = 0) -> SafeString:
    """A line of ratings: points[0] before the first game shown, points[i] after game first_game + i.

    provisional_until: the number of the first established game (30): the line is dashed before it.
    """
    if len(points) < 2:
        return mark_safe("")
    low, high = min(points), max(points)
    if high - low < 20:
        low, high = (low + high) / 2 - 10, (low + high) / 2 + 10
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def xy(i: int, value: float) -> str:
        return f"{LEFT + i * plot_w / (len(points) - 1):.1f},{TOP + (high - value) / (high - low) * plot_h:.1f}"

    split = min(max(provisional_until - first_game, 0), len(points) - 1)
    dashed = " ".join(xy(i, v) for i, v in enumerate(points[: split + 1])) if split > 0 else ""
    solid = " ".join(xy(i, v) for i, v in enumerate(points) if i >= split)
    lines = []
    if dashed:
        lines.append(("rating-provisional", "6 4", dashed))
    if split < len(points) - 1:
        lines.append(("rating-established", "none", solid))
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
        'role="img" aria-label="{label}">'
        "<title>{label}</title>"
        '<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#bbb"/>'
        '<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#bbb"/>'
        '<text x="{tx}" y="{ty_high}" font-size="11" text-anchor="end">{high}</text>'
        '<text x="{tx}" y="{bottom}" font-size="11" text-anchor="end">{low}</text>'
        '<text x="{left}" y="{h}" font-size="11" dy="-4">game {first}</text>'
        '<text x="{right}" y="{h}" font-size="11" dy="-4" text-anchor="end">game {last}</text>'
        "{lines}</svg>",
        w=WIDTH,
        h=HEIGHT,
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        bottom=HEIGHT - BOTTOM,
        tx=LEFT - 4,
        ty_high=TOP + 8,
        high=round(high),
        low=round(low),
        label=label,
        first=first_game,
        last=first_game + len(points) - 1,
        lines=format_html_join(
            "",
            '<polyline class="{}" fill="none" stroke="#1d70b8" stroke-width="2" stroke-dasharray="{}" points="{}"/>',
            lines,
        ),
    )
