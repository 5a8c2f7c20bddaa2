from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render

from games.engine import GAMES
from ratings import ladders
from ratings.table import ESTABLISHED_GAMES, ESTABLISHED_SIGMA, LADDER_OPPONENTS

TOP = 5
RULE = {
    "established_games": ESTABLISHED_GAMES,
    "established_sigma": ESTABLISHED_SIGMA,
    "ladder_opponents": LADDER_OPPONENTS,
}


def leaderboards(request):
    """Every game's top five, and the viewer's own place in each."""
    boards = []
    for slug, engine in GAMES.items():
        kind = ladders.default_kind(slug)
        top = list(ladders.ladder(slug, kind)[:TOP])
        boards.append(
            {
                "engine": engine,
                "top": top,
                "not_ranked_yet": [] if top else ladders.not_ranked_yet(slug, kind, TOP),
                "rule": ladders.who_is_ranked(slug, kind),
                "mine": ladders.position(slug, request.user, kind),
            }
        )
    return render(request, "ratings/leaderboards.html", {"boards": boards, **RULE})


def leaderboard(request, game: str):
    """One game's ladder, 50 a page, humans, bots or all; the viewer's place and its page."""
    if game not in GAMES:
        raise Http404("There is no such game.")
    kind = ladders.clean_kind(request.GET.get("kind"), game)
    page = Paginator(ladders.ladder(game, kind), ladders.PAGE_SIZE).get_page(request.GET.get("page"))
    mine = ladders.position(game, request.user, kind)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "engine": GAMES[game],
            "page": page,
            "kind": kind,
            "rule": ladders.who_is_ranked(game, kind),
            "kinds": list(ladders.KINDS),
            "mine": mine,
            "my_page": ladders.page_of(mine[0]) if mine and mine[0] else None,
            "first_place": page.start_index(),
            "not_ranked_yet": [] if page.object_list else ladders.not_ranked_yet(game, kind),
            **RULE,
            "high_scores": ladders.high_scores(game) if GAMES[game].min_players == 1 else [],
        },
    )
