"""Evidence charts: inline SVG bars drawn by the site, as ratings/charts.py draws ratings."""

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 480, 170
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 24, 30
COLOURS = ("#b8321d", "#1d70b8", "#6b6b6b")


def bars_svg(chart: dict | None, label: str) -> SafeString:
    """Grouped bars: for each label, one bar per series ({"labels", "unit", "series": {name: values}})."""
    if not chart or not chart.get("labels") or not chart.get("series"):
        return mark_safe("")
    labels, series = chart["labels"], list(chart["series"].items())
    values = [v for _, vs in series for v in vs]
    low, high = min(0.0, *values), max(0.0, *values) or 1.0
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / len(labels)
    bar = slot * 0.8 / len(series)

    def y(value: float) -> float:
        return TOP + (high - value) / (high - low) * plot_h

    rects = [
        (COLOURS[s % len(COLOURS)], f"{LEFT + i * slot + slot * 0.1 + s * bar:.1f}", f"{min(y(v), y(0)):.1f}",
         f"{bar:.1f}", f"{abs(y(v) - y(0)):.1f}", f"{name}, {labels[i]}: {v}")
        for s, (name, vs) in enumerate(series)
        for i, v in enumerate(vs)
    ]  # fmt: skip
    ticks = [(f"{LEFT + (i + 0.5) * slot:.1f}", HEIGHT - BOTTOM + 12, text) for i, text in enumerate(labels)]
    keys = [(COLOURS[s % len(COLOURS)], LEFT + s * 150, name) for s, (name, _) in enumerate(series)]
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="evidence-chart" viewBox="0 0 {w} {h}" width="{w}" '
        'height="{h}" role="img" aria-label="{label}"><title>{label}</title>'
        '<line x1="{left}" y1="{zero}" x2="{right}" y2="{zero}" stroke="#bbb"/>'
        '<text x="{tx}" y="{ty}" font-size="10" text-anchor="end">{high}</text>'
        "{keys}{rects}{ticks}"
        '<text x="{right}" y="{h}" font-size="10" dy="-2" text-anchor="end">{unit}</text></svg>',
        w=WIDTH, h=HEIGHT, left=LEFT, right=WIDTH - RIGHT, zero=f"{y(0):.1f}", tx=LEFT - 4, ty=TOP + 4,
        high=round(high, 2), label=label, unit=chart.get("unit", ""),
        keys=format_html_join(
            "", '<rect x="{1}" y="4" width="10" height="10" fill="{0}"/><text x="{1}" y="13" dx="14" '
            'font-size="11">{2}</text>', keys,
        ),
        rects=format_html_join(
            "", '<rect fill="{}" x="{}" y="{}" width="{}" height="{}"><title>{}</title></rect>', rects
        ),
        ticks=format_html_join("", '<text x="{}" y="{}" font-size="9" text-anchor="middle">{}</text>', ticks),
    )  # fmt: skip
